import { refuse, type TokenRejection } from './token-rejection.js'

/**
 * The `extensions` rule for authentication tokens of authorization_code and refresh_token
 * requests: the IG's AnT table says "omit for client apps using the authorization_code flow"
 * (STU2 §5.3), so a strict server (`refuse`, the default) refuses one with `invalid_grant`; a
 * lenient one (`ignore`) uses its right to ignore claims (§4.2.2, §5.3).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#constructing-authentication-token
 */
export function checkCodeFlowExtensions(
  claims: Readonly<Record<string, unknown>>,
  policy: 'refuse' | 'ignore',
): TokenRejection | undefined {
  if (policy === 'ignore' || claims.extensions === undefined) return undefined
  return refuse(
    'extensions',
    'invalid_grant',
    'client_assertion carries extensions, which authorization_code and refresh_token requests omit (IG STU2 §5.3)',
  )
}
