import { StoreError, type TokenSet } from '@fhir-auth/core'
import { sanitizeCause, timeLimited } from '@fhir-auth/core/internal'
import type { UdapTrustOptions } from '../operation-options.js'
import type { TokensListener } from './session.js'
import type { SessionSource } from './session-factory.js'

/**
 * A session's refresh grant, loaded with its first refresh (a session that never refreshes — an
 * app reloaded within the token's hour — never downloads it): the protocol's refresh grant (UDAP:
 * with `trust`, the trust inputs its token endpoint is validated with when the client has
 * validated none), and a new ID token in the response validated (same `sub`, OIDC Core §12.2)
 * when the grant includes `openid`. Shared by every caller waiting on it: it runs under the
 * client's time limit, not under one caller's signal.
 *
 * @internal
 */
export async function refreshTokens(
  source: SessionSource,
  trust: Partial<UdapTrustOptions>,
  current: TokenSet,
  scopes: readonly string[] | undefined,
): Promise<TokenSet> {
  const { options } = source.context
  const obtainedAt = options.now()
  const implementation = await source.implementation()
  const response = await implementation.refreshToken({
    refreshToken: current.refreshToken as string,
    scopes,
    ...trust,
  })
  const idToken = response.id_token
  const idTokenClaims =
    expectsIdToken(current) && typeof idToken === 'string'
      ? await source.identity.validate(idToken, {
          subject: current.idTokenClaims?.sub as string | undefined,
        })
      : undefined
  return current.withRefresh(response, {
    obtainedAt,
    idTokenClaims,
    logger: options.logger,
    clock: options.now,
  })
}

/**
 * Whether a refresh response's ID token is validated: when the grant asked for `openid` (a server
 * may leave it out of the granted `scope`), was granted it, or already has a verified identity.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RefreshTokenResponse OIDC Core §12.2
 */
function expectsIdToken(tokens: TokenSet): boolean {
  return (
    tokens.idTokenClaims !== undefined ||
    tokens.requestedScopes.includes('openid') ||
    tokens.scopes.includes('openid')
  )
}

/**
 * Calls the application's `onTokens` within the time limit. Its failure is reported as a
 * StoreError naming only the error's class: its message could quote the tokens it was given.
 *
 * @internal
 */
export async function notify(
  onTokens: TokensListener,
  tokens: TokenSet,
  timeoutMs: number,
): Promise<void> {
  const failed = (why: string) =>
    new StoreError('set', `onTokens failed to keep the new tokens (${why})`)
  try {
    await timeLimited(
      () => onTokens(tokens),
      timeoutMs,
      () => failed(`not finished within ${timeoutMs} ms`),
    )
  } catch (error) {
    if (error instanceof StoreError) throw error
    throw failed(sanitizeCause(error).name)
  }
}
