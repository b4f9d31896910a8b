import { type KeyValueStore, type Logger, storeKeyPrefix } from '@fhir-auth/core/essentials'
import {
  type CachedToken,
  cachedTokenOf,
  isFresh,
  parseCachedToken,
  type TokenResponseLike,
} from './cached-token.js'
import { underFleetLock } from './fleet-lock.js'
import { GuardedStore, type StoreFailed, storeFailed } from './guarded-store.js'

export type { CachedToken, TokenResponseLike } from './cached-token.js'

/** What one cache entry needs. */
export interface SharedTokenCacheOptions {
  /**
   * Where the token and the lock live. Without one, the token lives in this entry only (one
   * client's memory): its callers share one request without a lock, so no store code loads
   * (a memory store here would put core's `memoryStore` up front in every browser app).
   */
  readonly store: KeyValueStore | undefined
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
  /**
   * How long one store operation may take before the store counts as down; default 2,000 ms,
   * or half the request timeout when that is shorter.
   */
  readonly storeLimitMs?: number
  /** After a store failure, how long the store is left alone; default 5,000 ms. */
  readonly storeRetryAfterMs?: number
}

type Read = CachedToken | undefined | StoreFailed

/**
 * One backend token shared by every caller in this process and, through a shared
 * {@link KeyValueStore}, by every process of a fleet: one token request per expiry window.
 *
 * The protocol (ADR 0010): a caller reads the token from the store and returns it while it is
 * valid for `minValiditySeconds` more. Otherwise callers in this process share one acquisition:
 * it tries to win a lock key with `setIfAbsent` (time to live = the request timeout); the winner
 * reads once more, requests the token, writes it with a time to live ending at its expiry, then
 * frees the lock before its caller's call returns; the others poll the store (10 ms doubling to
 * 200 ms) for the token, try the lock again when it is gone, and after twice the request timeout
 * request on their own. A store that fails is left alone for a while ({@link GuardedStore}):
 * callers request directly, and the last token this process got stands in for the store
 * meanwhile. Store failures never reach the caller; token request errors do (typed, as
 * `requestBackendToken` throws them).
 * Without a store, the token lives in this entry: the process's callers share one acquisition
 * and need no lock.
 *
 * @internal
 */
export class SharedTokenCache {
  readonly #options: SharedTokenCacheOptions
  readonly #store: GuardedStore | undefined
  readonly #tokenKey: string
  readonly #lockKey: string
  #acquisition: Promise<CachedToken> | undefined
  /**
   * The last token this process obtained or read: used while the store is down, and as the
   * token's only home when there is no store.
   */
  #lastKnown: CachedToken | undefined
  /** The last stored text read and what it parsed to. */
  #lastRead: { readonly text: string; readonly token: CachedToken | undefined } | undefined

  constructor(options: SharedTokenCacheOptions) {
    this.#options = options
    this.#store =
      options.store === undefined
        ? undefined
        : new GuardedStore({
            store: options.store,
            logger: options.logger,
            operationLimitMs: options.storeLimitMs ?? Math.min(2_000, options.timeoutMs / 2),
            retryAfterMs: options.storeRetryAfterMs ?? 5_000,
          })
    this.#tokenKey = `${storeKeyPrefix}backend-token:${options.id}`
    this.#lockKey = `${storeKeyPrefix}backend-token-lock:${options.id}`
  }

  /** A token valid for at least `minValiditySeconds` more, from the store or a new request. */
  async token(minValiditySeconds: number): Promise<CachedToken> {
    const stored = await this.#readToken()
    if (this.#isFresh(stored, minValiditySeconds)) return stored
    if (stored === storeFailed && this.#isFresh(this.#lastKnown, minValiditySeconds))
      return this.#lastKnown
    if (this.#acquisition === undefined) {
      const acquisition = this.#acquire(minValiditySeconds, stored)
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
    if (stored === storeFailed || stored === undefined) return
    if (failedToken === undefined || stored.accessToken === failedToken)
      await this.#store?.delete(this.#tokenKey)
  }

  /** `firstRead`: what the caller that started this acquisition just read (not read again). */
  #acquire(minValiditySeconds: number, firstRead: Read): Promise<CachedToken> {
    // Without a store, this process's callers already share this one acquisition.
    if (this.#store === undefined) {
      return this.#isFresh(firstRead, minValiditySeconds)
        ? Promise.resolve(firstRead)
        : this.#requestToken(false)
    }
    return underFleetLock(
      {
        store: this.#store,
        lockKey: this.#lockKey,
        timeoutMs: this.#options.timeoutMs,
        logger: this.#options.logger,
        deadlineWarning: {
          event: 'backend_tokens.lock_wait_exceeded',
          message:
            'Backend token: the process holding the lock has not written a token within twice the request timeout; requesting one directly',
        },
        read: () => this.#readToken(),
        isDone: (read): read is CachedToken => this.#isFresh(read, minValiditySeconds),
        work: (turn) => this.#requestToken(turn !== 'store-failed'),
      },
      firstRead,
    )
  }

  async #requestToken(writeToStore: boolean): Promise<CachedToken> {
    const requestedAt = this.#options.now().getTime()
    const token = cachedTokenOf(await this.#options.request(), requestedAt)
    if (token.expiresAt === undefined) return token // no lifetime: used once, never cached
    this.#lastKnown = token
    const ttlSeconds = (token.expiresAt - this.#options.now().getTime()) / 1000
    if (writeToStore && ttlSeconds > 0)
      await this.#store?.set(this.#tokenKey, JSON.stringify(token), ttlSeconds)
    return token
  }

  async #readToken(): Promise<Read> {
    if (this.#store === undefined) return this.#lastKnown
    const text = await this.#store.get(this.#tokenKey)
    if (text === storeFailed || text === undefined) return text
    // The same text as last time is the same record: parse it once, not on every call.
    if (text !== this.#lastRead?.text) this.#lastRead = { text, token: parseCachedToken(text) }
    return this.#lastRead.token
  }

  #isFresh(token: Read, minValiditySeconds: number): token is CachedToken {
    return (
      token !== storeFailed && isFresh(token, minValiditySeconds, this.#options.now().getTime())
    )
  }
}
