import {
  describeMemberNames,
  type HttpResponse,
  isSuccessStatus,
  oauthErrorFromResponse,
  successJsonObject,
  TokenError,
} from '@fhir-auth/core'

/**
 * A token response as the server sent it (snake_case keys: `access_token`, `token_type`,
 * `expires_in`, `scope`, `refresh_token`, `id_token`, launch context such as `patient`), with a
 * non-empty `access_token` guaranteed.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 */
export type TokenResponse = Readonly<Record<string, unknown>> & { readonly access_token: string }

/**
 * Reads a token endpoint response (no I/O).
 *
 * A 2xx must be a JSON object (any content type) with a non-blank string `access_token`. A
 * non-2xx gives the RFC 6749 §5.2 error members when the body has them, else the status only.
 *
 * @param requestSecrets values sent in the request (code, verifier, secret, refresh token,
 *   assertion) that must not reach the error message if the server echoes them.
 * @throws TokenError with `status`, and `error`, `errorDescription`, `errorUri` from an OAuth
 *   error body; for an unusable 2xx body the `HttpError` is the `cause`. A missing
 *   `access_token` is reported with the names of the fields received, never their values.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export function parseTokenResponse(
  response: HttpResponse,
  requestSecrets: readonly (string | undefined)[] = [],
): TokenResponse {
  if (!isSuccessStatus(response))
    throw oauthErrorFromResponse(TokenError, 'token request', response, requestSecrets)
  const body = successJsonObject(TokenError, 'token response', response)
  const accessToken = body.access_token
  if (typeof accessToken !== 'string' || accessToken.trim() === '') {
    throw new TokenError({
      status: response.status,
      message: `token response has no non-blank string access_token (received fields: ${describeMemberNames(body)})`,
    })
  }
  return body as TokenResponse
}
