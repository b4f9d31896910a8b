import { StoreError, type TokenSet } from '@fhir-auth/core/essentials'
import { sanitizeCause, timeLimited } from '@fhir-auth/core/internal'
import type { UdapTrustOptions } from '../operation-options.js'
import type { SessionDependencies, TokensListener } from './session.js'
import type { SessionSource } from './session-factory.js'

/** What a {@link SessionRefresher} reads and replaces of its session. */
export interface RefreshedSession {
  readonly dependencies: SessionDependencies
  tokens: TokenSet
}

/**
 * A session's refreshes: concurrent callers share one request (the first caller's `scopes`
 * apply to it), `onTokens` is awaited with the new tokens before any caller gets them, and a
 * caller's `signal` ends only its own wait.
 *
 * @internal
 */
export class SessionRefresher {
  readonly #session: RefreshedSession
  #refreshing: Promise<TokenSet> | undefined

  constructor(session: RefreshedSession) {
    this.#session = session
  }

  /**
   * The refresh in flight, or a new one. The session checks for a refresh token and races the
   * caller's signal (around loading this module too), so a caller's abort ends only its wait.
   */
  join(options: { readonly scopes?: readonly string[] | undefined }): Promise<TokenSet> {
    if (this.#refreshing !== undefined) return this.#refreshing
    const refreshing = this.#refreshOnce(options)
    this.#refreshing = refreshing
    const clear = () => {
      if (this.#refreshing === refreshing) this.#refreshing = undefined
    }
    refreshing.then(clear, clear)
    return refreshing
  }

  async #refreshOnce(options: {
    readonly scopes?: readonly string[] | undefined
  }): Promise<TokenSet> {
    const { dependencies } = this.#session
    const tokens = await dependencies.refresh(this.#session.tokens, options)
    this.#session.tokens = tokens
    const { onTokens, timeoutMs } = dependencies
    if (onTokens !== undefined) await notify(onTokens, tokens, timeoutMs)
    return tokens
  }
}

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
  // The session's other tokens are secrets too: cut out of any error, should a server echo them.
  const heldSecrets = [current.accessToken, current.idToken ?? '']
  const response = await implementation.refreshToken(
    { refreshToken: current.refreshToken as string, scopes, ...trust },
    heldSecrets,
  )
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
 */
async function notify(
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
