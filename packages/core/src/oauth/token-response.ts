import { TokenError } from '../errors/oauth-error.js'
import {
  describeMemberNames,
  isSuccessStatus,
  oauthErrorFromResponse,
  successJsonObject,
} from '../http/oauth-exchange.js'
import type { HttpResponse } from '../http/request.js'
import type { FhirContextItem } from '../tokens/fhir-context.js'
import { headerUnsafeTokenMember } from './token-response-header-values.js'

/**
 * A token response as the server sent it (RFC 6749 §5.1, snake_case keys), the same type for
 * every protocol: a non-blank string `access_token` is guaranteed; the OAuth and SMART members
 * are named with their JSON types, and anything else is reachable through the index signature.
 *
 * The object is the server's JSON as received: a server that sends a member with another type
 * (`"expires_in": "3600"`) is not corrected here. `client.isTokenResponseValid` checks every
 * named member's type (and narrows to this type); `TokenSet` reads them safely.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 */
export interface TokenResponse {
  readonly access_token: string
  readonly token_type?: string
  readonly expires_in?: number
  readonly scope?: string
  readonly refresh_token?: string
  readonly id_token?: string
  /** SMART launch context: the patient in context. */
  readonly patient?: string
  readonly encounter?: string
  readonly fhirUser?: string
  readonly fhirContext?: readonly FhirContextItem[]
  readonly need_patient_banner?: boolean
  readonly smart_style_url?: string
  readonly intent?: string
  readonly tenant?: string
  readonly [member: string]: unknown
}

/**
 * Reads a token endpoint response (no I/O). A 2xx must be a JSON object (any content type)
 * with a non-blank string `access_token`; it is returned as received. A non-2xx gives the RFC
 * 6749 §5.2 error members when the body has them, else the status only.
 *
 * @param label - what the messages call the exchange: `token` gives "token request …" and
 *   "token response …"; `UDAP token` gives "UDAP token request …".
 * @param requestSecrets - values sent in the request (code, verifier, secret, refresh token,
 *   assertion) that must not reach an error message if the server echoes them.
 * @throws TokenError with `status`, and `error`, `errorDescription`, `errorUri` from an OAuth
 *   error body; for an unusable 2xx body the `HttpError` is the `cause`. A missing
 *   `access_token` is reported with the names of the fields received, never their values; an
 *   `access_token` or `token_type` that cannot travel in an HTTP header is named, never quoted.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @internal
 */
export function readTokenResponse(
  response: HttpResponse,
  label: string,
  requestSecrets: readonly (string | undefined)[],
): TokenResponse {
  if (!isSuccessStatus(response)) {
    throw oauthErrorFromResponse(TokenError, `${label} request`, response, requestSecrets)
  }
  const body = successJsonObject(TokenError, `${label} response`, response, requestSecrets)
  const accessToken = body.access_token
  if (typeof accessToken !== 'string' || accessToken.trim() === '') {
    throw new TokenError({
      status: response.status,
      message: `${label} response has no non-blank string access_token (received fields: ${describeMemberNames(body, requestSecrets)})`,
    })
  }
  // Refused here, once for every grant: sent on, the token would fail inside `fetch` with an
  // error that quotes the whole header value — the token itself.
  const unsafe = headerUnsafeTokenMember(body)
  if (unsafe !== undefined) {
    throw new TokenError({
      status: response.status,
      message: `${label} response has an ${unsafe} that cannot be sent in an HTTP header (a control character, CR, LF, NUL or a character beyond Latin-1)`,
    })
  }
  return body as TokenResponse
}

/**
 * A refresh response with the refresh token to keep: the server's new one when it rotated it,
 * else the one sent (RFC 6749 §6: the server MAY issue a new refresh token), so that
 * `refresh_token` of the result is always the one to store.
 *
 * @internal
 */
export function keepRefreshToken(response: TokenResponse, sent: string): TokenResponse {
  const returned = response.refresh_token
  return typeof returned === 'string' && returned !== ''
    ? response
    : { ...response, refresh_token: sent }
}

/**
 * The strings of a refresh's `heldSecrets` option (anything else in it is ignored: it only adds
 * values to redact, so a wrong one must not fail the refresh).
 *
 * @internal
 */
export function heldSecretsOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((secret): secret is string => typeof secret === 'string' && secret !== '')
    : []
}
