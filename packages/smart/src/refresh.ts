import { keepRefreshToken, readOptions, refreshTokenGrant } from '@fhir-auth/core/internal'
import type { ClientAuthentication } from './client-authentication-types.js'
import { postAuthenticatedTokenRequest, type TokenRequestCommon } from './token-request.js'
import type { TokenResponse } from './token-response.js'

/** Options of {@link refreshAccessToken}. */
export interface RefreshOptions extends TokenRequestCommon {
  readonly refreshToken: string
  /** A reduced scope list; when absent (or all blank) the original token's scopes are kept. */
  readonly scopes?: readonly string[] | undefined
  readonly clientAuthentication: ClientAuthentication
  /**
   * Other secrets the caller holds, cut out of any error like the refresh token: the access and
   * ID tokens this refresh replaces (a server may echo them). Never sent.
   */
  readonly heldSecrets?: readonly string[] | undefined
}

/**
 * Refreshes an access token: a form POST with `grant_type=refresh_token`, `refresh_token`, and
 * `scope` only when scopes are given, authenticated like the code exchange.
 *
 * The result is the server's JSON. A `refresh_token` in it replaces the one sent; when the
 * server sends none (no rotation), the result carries the one sent, so callers can always
 * store `result.refresh_token` for next time.
 *
 * @throws ConfigurationError for a missing or blank option (`refreshToken`, `tokenEndpoint`,
 *   client authentication).
 * @throws TokenError when the server refuses, answers unusably, or the transport fails.
 * @example
 * ```ts
 * const refreshed = await refreshAccessToken({
 *   tokenEndpoint: metadata.tokenEndpoint,
 *   refreshToken: tokens.refresh_token as string,
 *   clientAuthentication: { type: 'confidential_symmetric', clientId: 'my-app', clientSecret },
 * })
 * store(refreshed.refresh_token) // the rotated one, or the one sent when the server keeps it
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#step-7-app-uses-a-refresh-token-to-obtain-a-new-access-token
 */
export async function refreshAccessToken(input: RefreshOptions): Promise<TokenResponse> {
  const options = readOptions(input, 'refreshAccessToken', { required: true })
  const grant = refreshTokenGrant(options)
  const response = await postAuthenticatedTokenRequest(
    options as RefreshOptions,
    grant.form,
    grant.secrets,
  )
  return keepRefreshToken(response, grant.refreshToken)
}
