import type { HostileVariant } from './hostile-variants.js'
import { redirectUrlWith } from './oauth-redirect.js'

/** What an authorization response tells the client: a code, or an error. */
export type AuthorizationAnswer =
  | { readonly code: string }
  | { readonly error: string; readonly error_description: string }

/**
 * The redirect that answers a client's authorization request (RFC 6749 §4.1.2 and
 * §4.1.2.1): the code or error on the redirect URI, with the client's `state` — unless a
 * hostile variant changes (`wrong-state`) or drops (`missing-state`) it — and, when the server
 * sends it, RFC 9207's `iss`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#the-state-parameter
 */
export function clientRedirectLocation(
  redirectUri: string,
  answer: AuthorizationAnswer,
  state: string | undefined,
  hostile: HostileVariant | undefined,
  issuer: string | undefined,
): string {
  const sentState =
    hostile === 'missing-state'
      ? undefined
      : hostile === 'wrong-state'
        ? `${state ?? 'none'}-other`
        : state
  return redirectUrlWith(redirectUri, { ...answer, state: sentState, iss: issuer })
}
