import { keepRefreshToken, readOptions, refreshTokenGrant } from '@fhir-auth/core/internal'
import { postUdapTokenRequest, type UdapTokenRequestCommon } from './token-request.js'
import type { TokenResponse } from './token-response.js'

/** Options of {@link refreshUdapAccessToken}. */
export interface UdapRefreshOptions extends UdapTokenRequestCommon {
  readonly refreshToken: string
  /** A narrower scope list (RFC 6749 §6); when absent (or all blank) the grant's scopes are kept. */
  readonly scopes?: readonly string[] | undefined
  /**
   * Other secrets the caller holds, cut out of any error like the refresh token: the access and
   * ID tokens this refresh replaces (a server may echo them). Never sent.
   */
  readonly heldSecrets?: readonly string[] | undefined
}

/**
 * Refreshes an access token, authenticated like the code exchange by a fresh UDAP
 * Authentication Token (no `extensions`): a form POST of `grant_type=refresh_token`,
 * `refresh_token`, `scope` only when scopes are given, `client_assertion_type`,
 * `client_assertion` and `udap=1`.
 *
 * The result is the server's JSON; when the server sends no new refresh token, the result
 * carries the one sent, so `result.refresh_token` is always the one to keep.
 *
 * @throws ConfigurationError `refreshToken`, `tokenEndpoint`, `issuer` or `signer`, before any
 *   request.
 * @throws TokenError when the server refuses (`invalid_grant` for an unknown, rotated or revoked
 *   refresh token), answers unusably, or the transport fails.
 * @example
 * ```ts
 * const refreshed = await refreshUdapAccessToken({
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   issuer: registration.client_id,
 *   signer,
 *   refreshToken: tokens.refresh_token,
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#refresh-tokens
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6
 */
export async function refreshUdapAccessToken(input: UdapRefreshOptions): Promise<TokenResponse> {
  const options = readOptions(input, 'refreshUdapAccessToken', { required: true })
  const grant = refreshTokenGrant(options)
  const response = await postUdapTokenRequest(options as UdapRefreshOptions, () => grant)
  return keepRefreshToken(response, grant.refreshToken)
}
