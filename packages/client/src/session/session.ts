import type { TokenSet } from '@fhir-auth/core/essentials'
import {
  abortedByCaller,
  lazy,
  lazyImport,
  optionalScopes,
  optionalSignal,
  optionNames,
  raceSignal,
  readOptions,
} from '@fhir-auth/core/internal/checks'
import { TokenError } from '@fhir-auth/core/internal/up-front'
import { optionalSeconds } from '../seconds-option.js'
import type { BearerFetchInput } from '../tokens/bearer-fetch.js'
import { onDemandBearerFetch } from '../tokens/on-demand-bearer-fetch.js'
import type { SessionDependencies } from './session-dependencies.js'
import type { RefreshedSession } from './session-refresh.js'

/**
 * How a session refreshes (one refresh shared by concurrent callers, `onTokens` under its time
 * limit) and the client's refresh grant: loaded with the first refresh, like `session.fetch`'s
 * rules with the first request. A chunk that fails to load fails that refresh before anything
 * is sent, and is loaded again by the next one.
 *
 * @internal
 */
export const sessionRefreshModule = lazyImport(() => import('./session-refresh.js'))

/** Options of {@link Session.accessToken}. */
export interface AccessTokenOptions {
  /** Refresh first when the token expires within this many seconds (0 or more); default 60. */
  readonly minValiditySeconds?: number | undefined
  /** Stops this caller's wait for a refresh (the refresh goes on for the others). */
  readonly signal?: AbortSignal | undefined
}

/** Options of {@link Session.refresh}. */
export interface SessionRefreshOptions {
  /** A narrower set of scopes (RFC 6749 §6); default: the original grant's. */
  readonly scopes?: readonly string[] | undefined
  /** Stops this caller's wait; a refresh shared with other callers goes on for them. */
  readonly signal?: AbortSignal | undefined
}

/** The names {@link Session.accessToken} and {@link Session.refresh} take: any other is refused. */
const accessTokenOptionNames = optionNames<AccessTokenOptions>({ minValiditySeconds: 1, signal: 1 })
const refreshOptionNames = optionNames<SessionRefreshOptions>({ scopes: 1, signal: 1 })

/**
 * The private state of a session, for `SessionStore.save`, which gives a saved session the
 * refresh of the sessions opened from the store (in its own chunk: nothing more loads up front).
 * Set once, by the class, which alone reaches its private state.
 *
 * @internal
 */
export let sessionState: (session: Session) => RefreshedSession

/**
 * A signed-in session: the current tokens, kept fresh. `accessToken()` and `fetch()` refresh
 * first when the access token is about to expire and a refresh token exists; concurrent callers
 * for the same scopes share one refresh, and a rotated refresh token replaces the old one. `fetch` sends the token
 * only to URLs under the FHIR base URL.
 *
 * @see https://hl7.org/fhir/smart-app-launch/app-launch.html#step-7-app-uses-a-refresh-token-to-obtain-a-new-access-token SMART: refresh
 */
export class Session {
  static {
    sessionState = (session) => session.#state
  }

  /**
   * The current tokens, and whether `onTokens` failed to take them (the next call gives them
   * again): shared with the refresher, which replaces them.
   */
  readonly #state: RefreshedSession
  /** Shares one refresh between concurrent callers; its code loads with the first refresh. */
  readonly #refresher = lazy(() =>
    sessionRefreshModule().then(({ SessionRefresher }) => new SessionRefresher(this.#state)),
  )
  /**
   * `fetch` with `Authorization: Bearer` for URLs under `baseUrl` (relative URLs resolve
   * against it); on a 401 it refreshes once and sends the request again when it can be replayed.
   * Any other URL is a `ConfigurationError` and nothing is sent.
   */
  readonly fetch: (input: BearerFetchInput, init?: RequestInit) => Promise<Response>
  /** Set by `revoke()`: every later use is a `TokenError`. */
  #revoked = false
  /** Set by the first refresh: from then on `revoke()` waits for the refreshes in flight. */
  #refreshed = false

  /** @internal Sessions come from `client.completeAuthorization` and `client.resumeSession`. */
  constructor(dependencies: SessionDependencies) {
    this.#state = { dependencies, tokens: dependencies.tokens, undelivered: false }
    // Bound, like `fetch`: apps hand `session.accessToken` to FHIR clients as a token provider.
    this.accessToken = this.accessToken.bind(this)
    this.refresh = this.refresh.bind(this)
    this.fetch = onDemandBearerFetch({
      baseUrl: dependencies.baseUrl,
      fetch: dependencies.fetch,
      accessToken: () => this.accessToken(),
      renew: async (failedToken) => {
        if (this.#state.tokens.accessToken !== failedToken) return true // refreshed meanwhile
        if (this.#state.tokens.refreshToken === undefined) return false
        await this.refresh()
        return true
      },
    })
  }

  /** The current tokens. */
  get tokens(): TokenSet {
    return this.#state.tokens
  }

  /**
   * The access token, refreshed first when it expires within `minValiditySeconds` (default 60)
   * and a refresh token exists. When `onTokens` failed to take the current tokens, it is given
   * them again first.
   *
   * @throws TokenError when the token has expired and there is no refresh token, or the refresh
   *   fails; StoreError when `onTokens` fails again; ConfigurationError on the options (an
   *   unknown option included).
   */
  async accessToken(options?: AccessTokenOptions): Promise<string> {
    const checked = readOptions(options, 'accessToken', {
      known: accessTokenOptionNames,
      noun: 'option',
    })
    const minValiditySeconds = optionalSeconds(
      checked.minValiditySeconds ?? 60,
      'minValiditySeconds',
    ) as number
    const signal = optionalSignal(checked.signal)
    this.#checkNotRevoked()
    const now = this.#state.dependencies.now()
    if (
      this.#state.tokens.refreshToken !== undefined &&
      this.#state.tokens.isExpired({ minValiditySeconds, now })
    ) {
      return (await this.#joinRefresh({}, signal)).accessToken
    }
    if (this.#state.undelivered) await this.#redeliver(signal)
    if (!this.#state.tokens.isExpired({ now })) return this.#state.tokens.accessToken
    throw new TokenError({
      message: 'the access token has expired and the session has no refresh token: authorize again',
    })
  }

  /**
   * Refreshes now. Concurrent calls for the same scopes share one request; a call for other
   * scopes (narrower, or the original grant's) waits for the refresh in flight and then sends
   * its own. `onTokens` is awaited with the new tokens before any caller gets them. A new ID
   * token that fails validation for any reason but `sub` is dropped with a warning (the session
   * keeps its earlier identity). A caller's `signal` ends only its own wait.
   *
   * @throws TokenError when there is no refresh token or the server refuses it; IdTokenError
   *   `sub` when a new ID token is for another user (the session then keeps only the rotated
   *   refresh token); StoreError when `onTokens` throws or does not finish within the client's
   *   time limit (it is called again, with the newest tokens, by the next `accessToken()`,
   *   `fetch()` or `refresh()` until it succeeds); ConfigurationError on the options (an unknown
   *   option included).
   */
  async refresh(options?: SessionRefreshOptions): Promise<TokenSet> {
    const checked = readOptions(options, 'refresh', { known: refreshOptionNames, noun: 'option' })
    // Copied now: the request is built after awaits, and a caller may reuse its array meanwhile.
    const scopes = optionalScopes(checked.scopes, 'scopes')?.slice()
    return this.#joinRefresh({ scopes }, optionalSignal(checked.signal))
  }

  /**
   * Signs out at the server (RFC 7009): posts the refresh token, then the access token, to the
   * server's `revocation_endpoint`, authenticated as the client authenticates at its token
   * endpoint. A refresh in flight is waited for first, so the tokens revoked are the ones it
   * rotated in. Resolves `false` and sends nothing when the server advertises no revocation
   * endpoint. Either way the session is over: every later `accessToken()`, `fetch()` or
   * `refresh()` is a `TokenError`, and nothing is sent with these tokens again.
   *
   * @returns `true` when the server took both revocation requests.
   * @throws TokenError when the server refuses a revocation request or does not answer (the
   *   session is over here all the same, but the tokens may still be valid at the server).
   * @see https://www.rfc-editor.org/rfc/rfc7009 RFC 7009 (OAuth 2.0 token revocation)
   * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata SMART `revocation_endpoint`
   */
  async revoke(): Promise<boolean> {
    this.#revoked = true
    // Revoking the refresh token a refresh in flight is replacing would leave its successor
    // valid at the server (RFC 9700 §4.14.2): wait for it, then revoke the tokens it leaves.
    // Its code failed to load only when no refresh could be in flight: nothing to wait for.
    if (this.#refreshed)
      await this.#refresher().then(
        (refresher) => refresher.idle(),
        () => undefined,
      )
    const { revoke } = this.#state.dependencies
    return revoke === undefined ? false : revoke(this.#state.tokens)
  }

  /** @throws TokenError once the session was revoked. */
  #checkNotRevoked(): void {
    if (this.#revoked) {
      throw new TokenError({ message: 'the session was revoked: authorize again' })
    }
  }

  /**
   * `onTokens` again with the current tokens, after it failed to take them (a refresh gives them
   * with its own new tokens instead); this caller waits until its signal fires.
   */
  #redeliver(signal: AbortSignal | undefined): Promise<void> {
    return this.#wait(() => this.#refresher().then((refresher) => refresher.redeliver()), signal)
  }

  /**
   * The refresh for these scopes in flight, or a new one; this caller waits until its signal
   * fires. Without a refresh token nothing loads at all.
   */
  #joinRefresh(
    options: { readonly scopes?: readonly string[] | undefined },
    signal: AbortSignal | undefined,
  ): Promise<TokenSet> {
    this.#checkNotRevoked()
    return this.#wait(
      () =>
        this.#state.tokens.refreshToken === undefined
          ? Promise.reject(
              new TokenError({ message: 'the session has no refresh token: authorize again' }),
            )
          : this.#startRefresh(options),
      signal,
    )
  }

  /** Joins a refresh, marking the session as one `revoke()` must wait for from then on. */
  #startRefresh(options: { readonly scopes?: readonly string[] | undefined }): Promise<TokenSet> {
    this.#refreshed = true
    return this.#refresher().then((refresher) => refresher.join(options))
  }

  /**
   * Work this caller waits for until its signal fires. The signal also covers loading the
   * refresh code (its first use), so an aborted or stalled load never holds a caller who gave up.
   */
  #wait<T>(work: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return raceSignal(
      work,
      signal,
      () =>
        new TokenError(
          { message: 'waiting for the session refresh was aborted by the caller' },
          { cause: abortedByCaller('token_endpoint') },
        ),
    )
  }

  /** A summary safe to log: the redacted tokens. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#state.dependencies.baseUrl, tokens: this.#state.tokens.toJSON() }
  }

  /** Node's `util.inspect` shows the redacted summary. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Session ${JSON.stringify(this.toJSON())}`
  }
}
