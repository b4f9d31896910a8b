import type { HttpResponse, TokenResponse } from '@fhir-auth/core/essentials'
import { readTokenResponse } from '@fhir-auth/core/internal'

export type { TokenResponse } from '@fhir-auth/core/essentials'

/**
 * Reads a UDAP token endpoint response (no I/O). A 2xx must be a JSON object (any content
 * type) with a non-blank string `access_token`; it is returned as received. The server may
 * grant other scopes than requested: read `scope` in the response.
 *
 * @param requestSecrets values sent in the request (the assertion) that must not reach an
 *   error message if the server echoes them.
 * @throws TokenError with `status`, `error`, `errorDescription`, `errorUri` for an RFC 6749
 *   §5.2 error (UDAP uses `invalid_client` for trust failures, `invalid_grant` for a missing or
 *   bad extension, `invalid_scope`…); for a 2xx body that is not a JSON object (`cause` =
 *   `HttpError`) or lacks `access_token` (the message lists the field names received, never
 *   values).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#obtaining-an-access-token
 */
export function parseUdapTokenResponse(
  response: HttpResponse,
  requestSecrets: readonly string[] = [],
): TokenResponse {
  return readTokenResponse(response, 'UDAP token', requestSecrets)
}
