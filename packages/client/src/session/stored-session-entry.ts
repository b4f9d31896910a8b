import {
  defaultTimeoutMs,
  type KeyValueStore,
  StoreError,
  TokenSet,
} from '@fhir-auth/core/essentials'
import { sha256Base64Url, storeKey } from '@fhir-auth/core/internal'
import type { ProtocolContext } from '../protocol-context.js'
import {
  GuardedStore,
  type StoreFailed,
  storeFailed,
  unreadableValue,
} from '../tokens/guarded-store.js'

/** What {@link SessionEntry.read} gives for a value that is not this client's session. */
export const refused = Symbol('refused')
export type Refused = typeof refused

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
  #lastRead: { readonly text: string; readonly tokens: TokenSet | Refused } | undefined

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
   * What every `underFleetLock` run on this session shares: its store and lock key, the
   * client's request timeout (the lock's time to live) and logger, and the warning logged when
   * the holder wrote nothing in time (`what` names the operation, `directly` what is done then).
   */
  lockSettings(what: string, directly: string) {
    const { options } = this.#context
    return {
      store: this.store,
      lockKey: this.lockKey,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      logger: options.logger,
      deadlineWarning: {
        event: 'sessions.lock_wait_exceeded',
        message: `${what}: the process holding the lock has written no tokens within twice the request timeout; ${directly}`,
      },
    }
  }

  /**
   * The tokens kept, `undefined` when there are none (never saved, expired, deleted),
   * {@link refused} when what is kept is not this client's session (a sealed value that does not
   * open, an altered value, another client's binding: warned about, once per value), or
   * {@link storeFailed}.
   */
  async read(): Promise<TokenSet | undefined | StoreFailed | Refused> {
    const text = await this.store.read(this.tokensKey)
    if (text === storeFailed || text === undefined) return text
    if (text === unreadableValue) {
      this.#lastRead = undefined
      return this.#refuse('its value does not open (sealed with another encryptionKey, or altered)')
    }
    if (text !== this.#lastRead?.text) this.#lastRead = { text, tokens: this.#parse(text) }
    return this.#lastRead.tokens
  }

  /** Writes `tokens` for the entry's time to live (refreshed by every write). */
  async write(tokens: TokenSet): Promise<true | StoreFailed> {
    return this.store.set(this.tokensKey, tokens.serialize(), this.#ttlSeconds)
  }

  #parse(text: string): TokenSet | Refused {
    const { logger, now } = this.#context.options
    const tokens = TokenSet.deserialize(text, logger, now)
    if (tokens === undefined)
      return this.#refuse('its value is not a serialized session (altered?)')
    try {
      this.#context.checks.checkBinding(tokens.binding, this.#context.binding(), true)
    } catch {
      return this.#refuse('it was kept for another server or client')
    }
    return tokens
  }

  /** Warns (naming neither the id nor the value) that the entry's value is not used. */
  #refuse(why: string): Refused {
    this.#context.options.logger.warn(`A stored session was not used: ${why}`, {
      event: 'sessions.stored_session_refused',
    })
    return refused
  }
}

/** The failure of a store operation the caller waited for, named without key or value. */
export function sessionStoreError(operation: 'get' | 'set' | 'delete', what: string): StoreError {
  return new StoreError(operation, `the session store failed or did not answer in time: ${what}`)
}
