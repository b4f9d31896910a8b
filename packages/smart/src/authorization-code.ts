import { authorizationCodeGrant, readOptions } from '@fhir-auth/core/internal'
import type { ClientAuthentication } from './client-authentication-types.js'
import { postAuthenticatedTokenRequest, type TokenRequestCommon } from './token-request.js'
import type { TokenResponse } from './token-response.js'

/** Options of {@link exchangeAuthorizationCode}. */
export interface AuthorizationCodeExchangeOptions extends TokenRequestCommon {
  /** The `code` from the authorization callback. */
  readonly code: string
  /** The verifier that `buildAuthorizationRequest` returned for this authorization. */
  readonly codeVerifier: string
  /** The `redirect_uri` sent in the authorization request. */
  readonly redirectUri: string
  readonly clientAuthentication: ClientAuthentication
}

/**
 * Exchanges an authorization code for tokens: a form POST with `grant_type=authorization_code`,
 * `code`, `redirect_uri` and `code_verifier`, plus the client authentication (`client_id` for
 * public clients, HTTP Basic for symmetric ones, a fresh client assertion for asymmetric ones).
 *
 * @returns the token response as received.
 * @throws ConfigurationError for a missing or blank option (`code`, `codeVerifier`,
 *   `redirectUri`, `tokenEndpoint`, `clientId`, `clientSecret`, `kid`, `jwtAlgorithm`, …).
 * @throws TokenError when the server refuses, answers unusably, or the transport fails.
 * @example
 * ```ts
 * const tokens = await exchangeAuthorizationCode({
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   code: callbackUrl.searchParams.get('code') ?? '',
 *   codeVerifier, // from buildAuthorizationRequest, kept until the callback
 *   redirectUri: 'https://app.example.org/callback',
 *   clientAuthentication: { type: 'public', clientId: 'my-app' },
 * })
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#obtain-access-token
 */
export async function exchangeAuthorizationCode(
  input: AuthorizationCodeExchangeOptions,
): Promise<TokenResponse> {
  const options = readOptions(input, 'exchangeAuthorizationCode', { required: true })
  const grant = authorizationCodeGrant(options)
  return postAuthenticatedTokenRequest(
    options as AuthorizationCodeExchangeOptions,
    grant.form,
    grant.secrets,
  )
}
