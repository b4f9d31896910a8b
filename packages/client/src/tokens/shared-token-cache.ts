import { generateState, type KeyValueStore, type Logger, storeKeyPrefix } from '@fhir-auth/core'
import { expiresInSeconds } from '@fhir-auth/core/internal'

/** A backend access token as the cache keeps it (in the store, as JSON). */
export interface CachedToken {
  readonly accessToken: string
  readonly tokenType: string
  readonly scope: string | undefined
  /** When it was requested, epoch milliseconds by the client's clock. */
  readonly obtainedAt: number
  /** Epoch milliseconds by the client's clock; `undefined` when the server gave no lifetime. */
  readonly expiresAt: number | undefined
}

/** The token response members the cache reads. */
export interface TokenResponseLike {
  readonly access_token: string
  readonly [member: string]: unknown
}

/** What one cache entry needs. */
export interface SharedTokenCacheOptions {
  readonly store: KeyValueStore
  /** The entry's identity: a hash of token endpoint, client, scopes and context. */
  readonly id: string
  /** The client's clock, which judges expiry. */
  readonly now: () => Date
  /**
   * The client's request timeout: the lock's time to live (a crashed holder frees it after
   * this), and half of how long a waiter waits before it requests on its own.
   */
  readonly timeoutMs: number
  readonly logger: Logger
  /** Sends one token request. */
  readonly request: () => Promise<TokenResponseLike>
  /** How long one store operation may take before the store counts as down; default 2,000 ms. */
  readonly storeLimitMs?: number
}

const failed = Symbol('store failed')
type Read<T> = T | undefined | typeof failed

const firstPollMs = 10
const longestPollMs = 200

/**
 * One backend token shared by every caller in this process and, through a shared
 * {@link KeyValueStore}, by every process of a fleet: one token request per expiry window.
 *
 * The protocol (ADR 0010): a caller reads the token from the store and returns it while it is
 * valid for `minValiditySeconds` more. Otherwise callers in this process share one acquisition:
 * it tries to win a lock key with `setIfAbsent` (time to live = the request timeout); the winner
 * requests the token, writes it with a time to live ending at its expiry, then frees the lock;
 * the others poll the store (10 ms doubling to 200 ms) for the token, try the lock again when it
 * is gone, and after twice the request timeout request on their own. A store that throws or
 * does not answer within 2 s (`storeLimitMs`) counts as down for that call: the caller requests directly, and the
 * last token this process got stands in for the store while the store is down. Store errors
 * never reach the caller; token request errors do (typed, as `requestBackendToken` throws them).
 *
 * @internal
 */
export class SharedTokenCache {
  readonly #options: SharedTokenCacheOptions
  readonly #tokenKey: string
  readonly #lockKey: string
  #acquisition: Promise<CachedToken> | undefined
  /** The last token this process obtained or read: used only while the store is down. */
  #lastKnown: CachedToken | undefined
  #storeWarned = false

  constructor(options: SharedTokenCacheOptions) {
    this.#options = options
    this.#tokenKey = `${storeKeyPrefix}backend-token:${options.id}`
    this.#lockKey = `${storeKeyPrefix}backend-token-lock:${options.id}`
  }

  /** A token valid for at least `minValiditySeconds` more, from the store or a new request. */
  async token(minValiditySeconds: number): Promise<CachedToken> {
    const stored = await this.#readToken()
    if (this.#isFresh(stored, minValiditySeconds)) return stored as CachedToken
    if (stored === failed && this.#isFresh(this.#lastKnown, minValiditySeconds))
      return this.#lastKnown as CachedToken
    if (this.#acquisition === undefined) {
      const acquisition = this.#acquire(minValiditySeconds)
      this.#acquisition = acquisition
      const clear = () => {
        if (this.#acquisition === acquisition) this.#acquisition = undefined
      }
      acquisition.then(clear, clear)
    }
    return this.#acquisition
  }

  /**
   * Forgets a token: `failedToken` when a server refused it (the stored token is dropped only
   * if it is that one, so a fresh token another process already wrote survives), else whatever
   * is stored.
   */
  async invalidate(failedToken?: string): Promise<void> {
    if (failedToken === undefined || this.#lastKnown?.accessToken === failedToken)
      this.#lastKnown = undefined
    const stored = await this.#readToken()
    if (stored === failed || stored === undefined) return
    if (failedToken === undefined || stored.accessToken === failedToken)
      await this.#bounded(() => this.#options.store.delete(this.#tokenKey))
  }

  async #acquire(minValiditySeconds: number): Promise<CachedToken> {
    const waitUntil = Date.now() + 2 * this.#options.timeoutMs
    for (let poll = firstPollMs; ; poll = Math.min(poll * 2, longestPollMs)) {
      const stored = await this.#readToken()
      if (this.#isFresh(stored, minValiditySeconds)) return stored as CachedToken
      if (stored === failed) return this.#requestToken(false)
      const lockTtlSeconds = Math.ceil(this.#options.timeoutMs / 1000)
      const owner = generateState()
      const won = await this.#bounded(() =>
        this.#options.store.setIfAbsent(this.#lockKey, owner, lockTtlSeconds),
      )
      if (won === failed) return this.#requestToken(false)
      if (won) return this.#requestAsLockHolder(owner, minValiditySeconds)
      if (Date.now() >= waitUntil) {
        this.#options.logger.warn(
          'Backend token: the process holding the lock has not written a token within twice the request timeout; requesting one directly',
          { event: 'backend_tokens.lock_wait_exceeded' },
        )
        return this.#requestToken(true)
      }
      await sleep(Math.min(poll + Math.random() * poll, Math.max(0, waitUntil - Date.now())))
    }
  }

  async #requestAsLockHolder(owner: string, minValiditySeconds: number): Promise<CachedToken> {
    try {
      // The previous holder may have written its token and freed the lock since our last read.
      const stored = await this.#readToken()
      if (this.#isFresh(stored, minValiditySeconds)) return stored as CachedToken
      return await this.#requestToken(stored !== failed)
    } finally {
      const holder = await this.#bounded(() => this.#options.store.get(this.#lockKey))
      if (holder === owner) await this.#bounded(() => this.#options.store.delete(this.#lockKey))
    }
  }

  async #requestToken(writeToStore: boolean): Promise<CachedToken> {
    const requestedAt = this.#options.now().getTime()
    const response = await this.#options.request()
    const lifetime = expiresInSeconds(response.expires_in)
    const token: CachedToken = {
      accessToken: response.access_token,
      tokenType: typeof response.token_type === 'string' ? response.token_type : 'Bearer',
      scope: typeof response.scope === 'string' ? response.scope : undefined,
      obtainedAt: requestedAt,
      // Counted from when the request was sent, so the token is never thought younger than it is.
      expiresAt: lifetime === undefined ? undefined : requestedAt + lifetime * 1000,
    }
    if (token.expiresAt === undefined) return token // no lifetime: used once, never cached
    this.#lastKnown = token
    const ttlSeconds = (token.expiresAt - this.#options.now().getTime()) / 1000
    if (writeToStore && ttlSeconds > 0) {
      await this.#bounded(() =>
        this.#options.store.set(this.#tokenKey, JSON.stringify(token), ttlSeconds),
      )
    }
    return token
  }

  async #readToken(): Promise<Read<CachedToken>> {
    const text = await this.#bounded(() => this.#options.store.get(this.#tokenKey))
    if (text === failed) return failed
    return typeof text === 'string' ? parseCachedToken(text) : undefined
  }

  /**
   * Valid for `minValiditySeconds` more — or, for a token whose whole lifetime is shorter than
   * twice that, for half its lifetime more (else every call would request a new token).
   */
  #isFresh(token: Read<CachedToken>, minValiditySeconds: number): boolean {
    if (token === undefined || token === failed || token.expiresAt === undefined) return false
    const lifetimeMs = token.expiresAt - token.obtainedAt
    const marginMs = Math.min(minValiditySeconds * 1000, lifetimeMs / 2)
    return token.expiresAt - marginMs > this.#options.now().getTime()
  }

  /**
   * A store operation that threw, rejected or took too long is `failed`; the first failure of
   * an outage is logged (by error name only: a store's message can quote a value).
   */
  async #bounded<T>(operation: () => Promise<T>): Promise<T | typeof failed> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const limit = new Promise<typeof failed>((resolve) => {
      timer = setTimeout(() => resolve(failed), this.#options.storeLimitMs ?? 2_000)
    })
    try {
      const result = await Promise.race([operation(), limit])
      if (result === failed) this.#warnStore('did not answer in time')
      else this.#storeWarned = false
      return result
    } catch (error) {
      this.#warnStore(`failed (${error instanceof Error ? error.name : typeof error})`)
      return failed
    } finally {
      clearTimeout(timer)
    }
  }

  #warnStore(what: string): void {
    if (this.#storeWarned) return
    this.#storeWarned = true
    this.#options.logger.warn(
      `Backend token store ${what}; requesting tokens directly while it is unavailable`,
      { event: 'backend_tokens.store_unavailable' },
    )
  }
}

function parseCachedToken(text: string): CachedToken | undefined {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof CachedToken, unknown>>
    if (
      typeof value.accessToken !== 'string' ||
      typeof value.expiresAt !== 'number' ||
      typeof value.obtainedAt !== 'number'
    )
      return undefined
    return {
      accessToken: value.accessToken,
      obtainedAt: value.obtainedAt,
      tokenType: typeof value.tokenType === 'string' ? value.tokenType : 'Bearer',
      scope: typeof value.scope === 'string' ? value.scope : undefined,
      expiresAt: value.expiresAt,
    }
  } catch {
    return undefined
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
