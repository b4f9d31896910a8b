import {
  IdTokenError,
  StoreError,
  type TokenResponse,
  type TokenSet,
} from '@fhir-auth/core/essentials'
import {
  requireWithinGrant,
  sanitizeCause,
  timeLimited,
  usableScopes,
  warnIfNarrowed,
} from '@fhir-auth/core/internal'
import type { IdTokenClaims } from '@fhir-auth/core/oidc'
import type { UdapTrustOptions } from '../operation-options.js'
import type { SessionDependencies } from './session-dependencies.js'
import type { SessionSource } from './session-source.js'
import type { TokensListener } from './tokens-listener.js'

/** What a {@link SessionRefresher} reads and replaces of its session. */
export interface RefreshedSession {
  /** Replaced when the session is saved in a `SessionStore` (its refresh and `onTokens`). */
  dependencies: SessionDependencies
  tokens: TokenSet
  /** True while `onTokens` has not accepted the session's current tokens (it failed). */
  undelivered: boolean
}

/**
 * A refresh that failed but still changed what the session must keep: a rotating server has
 * already spent the old refresh token, so the new one (`keep`) replaces it before `failure`
 * reaches the callers.
 *
 * @internal
 */
export class RefreshFailure extends Error {
  readonly keep: TokenSet
  readonly failure: unknown

  constructor(keep: TokenSet, failure: unknown) {
    super('refresh failed; the session keeps a rotated refresh token')
    this.keep = keep
    this.failure = failure
  }
}

/** A refresh queued or in flight, and the scopes it asks for. */
interface QueuedRefresh {
  readonly scopes: string
  readonly result: Promise<TokenSet>
}

/**
 * A session's refreshes. Callers that ask for the same scopes share one request; a refresh for
 * other scopes (a narrower one, or the original grant's after a narrower one) waits for the one
 * in flight and then sends its own, so no caller gets tokens for scopes it did not ask for.
 * `onTokens` is awaited with the new tokens before any caller gets them; when it fails, it is
 * called again, with the newest tokens, by the next `accessToken()`, `fetch()` or `refresh()`
 * until it succeeds. A caller's `signal` ends only its own wait.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6 (a narrower scope)
 * @internal
 */
export class SessionRefresher {
  readonly #session: RefreshedSession
  /** The refreshes in flight and queued, in order: each runs once the one before has settled. */
  readonly #queue: QueuedRefresh[] = []
  #redelivering: Promise<void> | undefined

  constructor(session: RefreshedSession) {
    this.#session = session
  }

  /**
   * The refresh for these scopes in flight or queued, or a new one queued after the last. The
   * session checks for a refresh token and races the caller's signal (around loading this
   * module too), so a caller's abort ends only its wait.
   */
  join(options: { readonly scopes?: readonly string[] | undefined }): Promise<TokenSet> {
    const scopes = scopesKey(options.scopes)
    const same = this.#queue.find((queued) => queued.scopes === scopes)
    if (same !== undefined) return same.result
    const before = this.#queue.at(-1)
    const run = () => this.#refreshOnce(options)
    const result = before === undefined ? run() : before.result.then(run, run)
    const queued = { scopes, result }
    this.#queue.push(queued)
    const settle = () => {
      this.#queue.splice(this.#queue.indexOf(queued), 1)
    }
    result.then(settle, settle)
    return result
  }

  /**
   * Resolves once no refresh is queued any more, whatever each one's outcome: `revoke()` then
   * holds the tokens the last one left.
   */
  async idle(): Promise<void> {
    while (this.#queue.length > 0) {
      await Promise.allSettled(this.#queue.map((queued) => queued.result))
    }
  }

  /**
   * Gives `onTokens` the session's current tokens again when it failed to take them; callers
   * that arrive meanwhile share the call.
   *
   * @throws StoreError when `onTokens` fails again.
   */
  redeliver(): Promise<void> {
    if (!this.#session.undelivered) return Promise.resolve()
    this.#redelivering ??= this.#deliver(this.#session.tokens).finally(() => {
      this.#redelivering = undefined
    })
    return this.#redelivering
  }

  async #refreshOnce(options: {
    readonly scopes?: readonly string[] | undefined
  }): Promise<TokenSet> {
    const session = this.#session
    let tokens: TokenSet
    try {
      tokens = await session.dependencies.refresh(session.tokens, options)
    } catch (error) {
      if (error instanceof RefreshFailure) {
        if (error.keep !== session.tokens) {
          session.tokens = error.keep
          // The refresh's own failure is what the callers see; a failed delivery stays pending.
          await this.#deliver(error.keep).catch(() => undefined)
        }
        throw error.failure
      }
      if (session.undelivered) await this.redeliver().catch(() => undefined)
      throw error
    }
    session.tokens = tokens
    await this.#deliver(tokens)
    return tokens
  }

  /** `onTokens` with `tokens`; the session stays undelivered until one such call succeeds. */
  async #deliver(tokens: TokenSet): Promise<void> {
    const session = this.#session
    const { onTokens, timeoutMs } = session.dependencies
    if (onTokens === undefined) return
    session.undelivered = true
    await notify(onTokens, tokens, timeoutMs)
    if (session.tokens === tokens) session.undelivered = false
  }
}

/** The scopes a refresh asks for, as a set: `undefined` (the original grant's) is its own. */
function scopesKey(scopes: readonly string[] | undefined): string {
  return scopes === undefined ? '\u0000original' : [...new Set(scopes)].sort().join(' ')
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
  requireWithinGrant(scopes, current.scopes)
  const obtainedAt = options.now()
  const implementation = await source.implementation()
  // A session resumed on a client that discovers its token endpoint is checked here, before
  // its refresh token is sent anywhere.
  const tokenEndpoint = await implementation.tokenEndpoint(trust)
  const binding = { ...source.context.binding(), tokenEndpoint }
  source.context.checks.checkBinding(current.binding, binding)
  // The session's other tokens are secrets too: cut out of any error, should a server echo them.
  const heldSecrets = [current.accessToken, current.idToken ?? '']
  const response = await implementation.refreshToken(
    { refreshToken: current.refreshToken as string, scopes, ...trust },
    heldSecrets,
  )
  const { kept, idTokenClaims } = await refreshedIdentity(source, current, response)
  const tokens = current.withRefresh(kept, {
    // The scopes the request sent (none: the grant stays as it was), granted when the response
    // has no `scope` (RFC 6749 §5.1).
    requestedScopes: usableScopes(scopes),
    obtainedAt,
    idTokenClaims,
    logger: options.logger,
    clock: options.now,
    binding,
  })
  // Without a `scope` member the grant is the one asked for (RFC 6749 §5.1).
  if (typeof kept.scope === 'string')
    warnIfNarrowed(scopes ?? current.scopes, tokens.scopes, options.logger)
  return tokens
}

/**
 * The identity a refresh response leaves the session with. A new ID token that validates (same
 * `sub`) replaces the old one. One that fails for any other reason — the key set unreachable,
 * or a server whose refreshed ID tokens lack `aud` (the SMART launcher's) — must not end a
 * session whose tokens are good: it is dropped, with a warning naming the reason, and the
 * session keeps its earlier verified identity; its claims are never used. A token for another
 * `sub` is an `IdTokenError` `sub`, and of the response the session keeps only the rotated
 * refresh token (the server has spent the old one).
 *
 * @throws RefreshFailure carrying the `IdTokenError` `sub`.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RefreshTokenResponse OIDC Core §12.2
 */
async function refreshedIdentity(
  source: SessionSource,
  current: TokenSet,
  response: TokenResponse,
): Promise<{ kept: TokenResponse; idTokenClaims: IdTokenClaims | undefined }> {
  const idToken = response.id_token
  if (!expectsIdToken(current) || typeof idToken !== 'string') {
    return { kept: response, idTokenClaims: undefined }
  }
  try {
    const idTokenClaims = await source.identity.validate(idToken, {
      subject: current.idTokenClaims?.sub as string | undefined,
    })
    return { kept: response, idTokenClaims }
  } catch (error) {
    if (error instanceof IdTokenError && error.reason === 'sub') {
      throw new RefreshFailure(withRotatedRefreshToken(current, response), error)
    }
    const reason = error instanceof IdTokenError ? error.reason : sanitizeCause(error).name
    source.context.options.logger.warn(
      `The ID token of a refresh response failed validation (${reason}): the session keeps its earlier identity and drops the new ID token`,
      { event: 'session.refresh.id_token_dropped', reason },
    )
    const { id_token: _dropped, ...kept } = response
    return { kept: kept as TokenResponse, idTokenClaims: undefined }
  }
}

/**
 * `current` with the refresh token of `response` (RFC 6749 §6: a rotating server has spent the
 * old one) and nothing else of it: the access token, its expiry and the identity stay.
 */
function withRotatedRefreshToken(current: TokenSet, response: TokenResponse): TokenSet {
  const rotated = response.refresh_token
  if (typeof rotated !== 'string' || rotated === current.refreshToken) return current
  return current.withRefresh(
    { ...current.raw, refresh_token: rotated },
    { obtainedAt: current.obtainedAt, idTokenClaims: current.idTokenClaims },
  )
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
