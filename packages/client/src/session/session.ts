import { type FetchLike, TokenError, type TokenSet } from '@fhir-auth/core'
import type { BearerFetchInput } from '../tokens/bearer-fetch.js'
import { onDemandBearerFetch } from '../tokens/on-demand-bearer-fetch.js'

/** Options of {@link Session.accessToken}. */
export interface AccessTokenOptions {
  /** Refresh first when the token expires within this many seconds; default 60. */
  readonly minValiditySeconds?: number
}

/** Options of {@link Session.refresh}. */
export interface SessionRefreshOptions {
  /** A narrower set of scopes (RFC 6749 §6); default: the original grant's. */
  readonly scopes?: readonly string[]
  readonly signal?: AbortSignal
}

/** Called after every refresh with the new tokens, and awaited: where an app persists them. */
export type TokensListener = (tokens: TokenSet) => void | Promise<void>

/** What a session needs from its client. @internal */
export interface SessionDependencies {
  readonly tokens: TokenSet
  /** The FHIR base URL; without one, `fetch` refuses every URL. */
  readonly baseUrl: string | undefined
  readonly fetch: FetchLike | undefined
  readonly now: () => Date
  /** Refreshes (and validates any new ID token); the client's implementation of the grant. */
  readonly refresh: (tokens: TokenSet, options: SessionRefreshOptions) => Promise<TokenSet>
  readonly onTokens?: TokensListener | undefined
}

/**
 * A signed-in session: the current tokens, kept fresh. `accessToken()` and `fetch()` refresh
 * first when the access token is about to expire and a refresh token exists; concurrent callers
 * share one refresh, and a rotated refresh token replaces the old one. `fetch` sends the token
 * only to URLs under the FHIR base URL.
 *
 * @see https://hl7.org/fhir/smart-app-launch/app-launch.html#step-7-app-uses-a-refresh-token-to-obtain-a-new-access-token SMART: refresh
 */
export class Session {
  #tokens: TokenSet
  readonly #dependencies: SessionDependencies
  #refreshing: Promise<TokenSet> | undefined
  /**
   * `fetch` with `Authorization: Bearer` for URLs under `baseUrl` (relative URLs resolve
   * against it); on a 401 it refreshes once and sends the request again when it can be replayed.
   * Any other URL is a `ConfigurationError` and nothing is sent.
   */
  readonly fetch: (input: BearerFetchInput, init?: RequestInit) => Promise<Response>

  /** @internal Sessions come from `client.completeAuthorization` and `client.resumeSession`. */
  constructor(dependencies: SessionDependencies) {
    this.#dependencies = dependencies
    this.#tokens = dependencies.tokens
    this.fetch = onDemandBearerFetch({
      baseUrl: dependencies.baseUrl,
      fetch: dependencies.fetch,
      accessToken: () => this.accessToken(),
      renew: async (failedToken) => {
        if (this.#tokens.accessToken !== failedToken) return true // refreshed meanwhile
        if (this.#tokens.refreshToken === undefined) return false
        await this.refresh()
        return true
      },
    })
  }

  /** The current tokens. */
  get tokens(): TokenSet {
    return this.#tokens
  }

  /**
   * The access token, refreshed first when it expires within `minValiditySeconds` (default 60)
   * and a refresh token exists.
   *
   * @throws TokenError when the token has expired and there is no refresh token, or the refresh fails.
   */
  async accessToken(options: AccessTokenOptions = {}): Promise<string> {
    const now = this.#dependencies.now()
    const minValiditySeconds = options.minValiditySeconds ?? 60
    if (!this.#tokens.isExpired({ minValiditySeconds, now })) return this.#tokens.accessToken
    if (this.#tokens.refreshToken !== undefined) return (await this.refresh()).accessToken
    if (!this.#tokens.isExpired({ now })) return this.#tokens.accessToken
    throw new TokenError({
      message: 'the access token has expired and the session has no refresh token: authorize again',
    })
  }

  /**
   * Refreshes now. Concurrent calls share one request; `onTokens` is awaited with the new tokens
   * before any caller gets them.
   *
   * @throws TokenError when there is no refresh token or the server refuses it; IdTokenError
   *   when a new ID token fails validation.
   */
  refresh(options: SessionRefreshOptions = {}): Promise<TokenSet> {
    if (this.#refreshing !== undefined) return this.#refreshing
    if (this.#tokens.refreshToken === undefined) {
      return Promise.reject(
        new TokenError({ message: 'the session has no refresh token: authorize again' }),
      )
    }
    const refreshing = this.#refreshOnce(options)
    this.#refreshing = refreshing
    const clear = () => {
      if (this.#refreshing === refreshing) this.#refreshing = undefined
    }
    refreshing.then(clear, clear)
    return refreshing
  }

  async #refreshOnce(options: SessionRefreshOptions): Promise<TokenSet> {
    const tokens = await this.#dependencies.refresh(this.#tokens, options)
    this.#tokens = tokens
    await this.#dependencies.onTokens?.(tokens)
    return tokens
  }

  /** A summary safe to log: the redacted tokens. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#dependencies.baseUrl, tokens: this.#tokens.toJSON() }
  }

  /** Node's `util.inspect` shows the redacted summary. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Session ${JSON.stringify(this.toJSON())}`
  }
}
