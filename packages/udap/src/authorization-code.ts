import { authorizationCodeGrant, readOptions } from '@fhir-auth/core/internal'
import { postUdapTokenRequest, type UdapTokenRequestCommon } from './token-request.js'
import type { TokenResponse } from './token-response.js'

/** Options of {@link exchangeUdapAuthorizationCode}. */
export interface UdapAuthorizationCodeOptions extends UdapTokenRequestCommon {
  /** The `code` from the authorization callback. */
  readonly code: string
  /** The PKCE verifier of this authorization (IG STU2 requires PKCE). */
  readonly codeVerifier: string
  /** The `redirect_uri` sent in the authorization request, identical. */
  readonly redirectUri: string
}

/**
 * Exchanges an authorization code for tokens, authenticated by a UDAP Authentication Token:
 * a form POST of `grant_type=authorization_code`, `code`, `redirect_uri`, `code_verifier`,
 * `client_assertion_type` (JWT bearer), `client_assertion` and `udap=1`. The authentication
 * token has `iss = sub = issuer`, `aud = tokenEndpoint`, `iat`, `exp = iat + 300`, a fresh
 * `jti` and no `extensions` (IG STU2: omitted for authorization_code). No `Authorization`
 * header, no client secret.
 *
 * @returns the token response as received (an `id_token` in it is not validated here).
 * @throws ConfigurationError `code`, `codeVerifier`, `redirectUri`, `tokenEndpoint`, `issuer`
 *   or `signer`, before any request.
 * @throws TokenError when the server refuses (`invalid_grant` for a bad code, verifier or
 *   authentication token; `invalid_client`…), answers unusably, or the transport fails.
 * @example
 * ```ts
 * const tokens = await exchangeUdapAuthorizationCode({
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   issuer: registration.client_id,
 *   signer,
 *   code,
 *   codeVerifier, // from buildUdapAuthorizationRequest, kept until the callback
 *   redirectUri: 'https://app.example.org/callback',
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#obtaining-an-access-token
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#obtaining-an-access-token
 */
export async function exchangeUdapAuthorizationCode(
  input: UdapAuthorizationCodeOptions,
): Promise<TokenResponse> {
  const options = readOptions(input, 'exchangeUdapAuthorizationCode', { required: true })
  const grant = authorizationCodeGrant(options)
  return postUdapTokenRequest(options as UdapAuthorizationCodeOptions, () => grant)
}
