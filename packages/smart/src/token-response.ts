import type { HttpResponse, TokenResponse } from '@fhir-auth/core/essentials'
import { readTokenResponse } from '@fhir-auth/core/internal'

export type { TokenResponse } from '@fhir-auth/core/essentials'

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
 * @example
 * ```ts
 * // with a response from your own HTTP stack (an HttpResponse: url, status, headers, bodyText)
 * const tokens = parseTokenResponse(response, [code, codeVerifier])
 * tokens.access_token // a non-blank string
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 */
export function parseTokenResponse(
  response: HttpResponse,
  requestSecrets: readonly (string | undefined)[] = [],
): TokenResponse {
  return readTokenResponse(response, 'token', requestSecrets)
}
