import {
  defaultTimeoutMs,
  type KeyValueStore,
  StoreError,
  TokenSet,
} from '@fhir-auth/core/essentials'
import { sha256Base64Url, storeKey } from '@fhir-auth/core/internal'
import type { ProtocolContext } from '../protocol-context.js'
import { GuardedStore, type StoreFailed, storeFailed } from '../tokens/guarded-store.js'

/** A session id as `save` makes them: 256 bits, base64url without padding. */
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/

/**
 * A {@link KeyValueStore} guarded for sessions (ADR 0010's bounds: every operation answers within
 * the store's time limit, never with the store's own error). Its outage is a `StoreError` for
 * the caller, never a refresh whose rotated token could not be kept.
 *
 * @internal
 */
export function guardedSessionStore(store: KeyValueStore, context: ProtocolContext): GuardedStore {
  const timeoutMs = context.options.timeoutMs ?? defaultTimeoutMs
  return new GuardedStore({
    store,
    logger: context.options.logger,
    operationLimitMs: Math.min(2_000, timeoutMs / 2),
    retryAfterMs: 1_000,
    unavailable: {
      store: 'Session store',
      consequence: 'sessions cannot be opened, saved or refreshed while it is unavailable',
      event: 'sessions.store_unavailable',
    },
  })
}

/**
 * The SHA-256 of a session id, which names its entry in the store; `undefined` for a string
 * `save` could not have made.
 *
 * @internal
 */
export async function sessionIdHash(id: string): Promise<string | undefined> {
  return sessionIdPattern.test(id) ? sha256Base64Url(id) : undefined
}

/**
 * The store key of a session's tokens; `undefined` for an id `save` could not have made.
 *
 * @internal
 */
export async function sessionTokensKey(id: string): Promise<string | undefined> {
  const hash = await sessionIdHash(id)
  return hash === undefined ? undefined : storeKey('session', hash)
}

/**
 * One session's entry in the store: its serialized tokens under `fhir-auth:session:<hash>` and
 * its refresh lock under `fhir-auth:session-lock:<hash>`, where the hash is the SHA-256 of the
 * id, so the id (the user's credential for the session) is never in a key or a log line.
 *
 * @internal
 */
export class SessionEntry {
  readonly store: GuardedStore
  readonly tokensKey: string
  readonly lockKey: string
  readonly #context: ProtocolContext
  readonly #ttlSeconds: number
  /** The last text read and what it parsed to: a value read again is parsed once. */
  #lastRead: { readonly text: string; readonly tokens: TokenSet | undefined } | undefined

  private constructor(
    store: GuardedStore,
    hash: string,
    context: ProtocolContext,
    ttlSeconds: number,
  ) {
    this.store = store
    this.tokensKey = storeKey('session', hash)
    this.lockKey = storeKey('session-lock', hash)
    this.#context = context
    this.#ttlSeconds = ttlSeconds
  }

  /** The entry of `id`; `undefined` for a string `save` could not have made. */
  static async of(
    id: string,
    store: GuardedStore,
    context: ProtocolContext,
    ttlSeconds: number,
  ): Promise<SessionEntry | undefined> {
    const hash = await sessionIdHash(id)
    return hash === undefined ? undefined : new SessionEntry(store, hash, context, ttlSeconds)
  }

  /**
   * The tokens kept, `undefined` when there are none (never saved, expired, deleted) or they
   * are not this client's (altered, or another client's binding: warned about), or
   * {@link storeFailed}.
   */
  async read(): Promise<TokenSet | undefined | StoreFailed> {
    const text = await this.store.get(this.tokensKey)
    if (text === storeFailed || text === undefined) return text
    if (text !== this.#lastRead?.text) this.#lastRead = { text, tokens: this.#parse(text) }
    return this.#lastRead.tokens
  }

  /** Writes `tokens` for the entry's time to live (refreshed by every write). */
  async write(tokens: TokenSet): Promise<true | StoreFailed> {
    return this.store.set(this.tokensKey, tokens.serialize(), this.#ttlSeconds)
  }

  #parse(text: string): TokenSet | undefined {
    const { logger, now } = this.#context.options
    const tokens = TokenSet.deserialize(text, logger, now)
    const warn = (why: string) => {
      logger.warn(`A stored session was not used: ${why}`, {
        event: 'sessions.stored_session_refused',
      })
      return undefined
    }
    if (tokens === undefined) return warn('its value is not a serialized session (altered?)')
    try {
      this.#context.checks.checkBinding(tokens.binding, this.#context.binding(), true)
    } catch {
      return warn('it was kept for another server or client')
    }
    return tokens
  }
}

/** The failure of a store operation the caller waited for, named without key or value. */
export function sessionStoreError(operation: 'get' | 'set' | 'delete', what: string): StoreError {
  return new StoreError(operation, `the session store failed or did not answer in time: ${what}`)
}
