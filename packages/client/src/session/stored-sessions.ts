import { defaultTimeoutMs, generateState, type KeyValueStore } from '@fhir-auth/core/essentials'
import type { GuardedStore } from '../tokens/guarded-store.js'
import { storeFailed } from '../tokens/guarded-store.js'
import { Session, type TokensListener } from './session.js'
import { checkBinding, configuredBinding } from './session-binding.js'
import type { SessionSource } from './session-factory.js'
import { guardedSessionStore, SessionEntry, sessionStoreError } from './stored-session-entry.js'
import { sharedRefresh } from './stored-session-refresh.js'

/**
 * What a `SessionStore` does once its code has loaded: sessions saved under ids from the CSPRNG
 * and opened as `Session`s whose refreshes the fleet shares (see `sharedRefresh`).
 *
 * @internal
 */
export class StoredSessions {
  readonly #source: SessionSource
  readonly #store: GuardedStore
  readonly #ttlSeconds: number

  constructor(source: SessionSource, store: KeyValueStore, ttlSeconds: number) {
    this.#source = source
    this.#store = guardedSessionStore(store, source.context)
    this.#ttlSeconds = ttlSeconds
  }

  /** @throws ConfigurationError on `tokens` (another client's session); StoreError. */
  async save(session: Session): Promise<string> {
    checkBinding(session.tokens.binding, configuredBinding(this.#source.context))
    // 256 bits from the CSPRNG, base64url: the user's credential for the session.
    const id = generateState()
    const entry = (await this.#entry(id)) as SessionEntry
    if ((await entry.write(session.tokens)) === storeFailed) {
      throw sessionStoreError('set', 'the session was not saved')
    }
    return id
  }

  /** @throws StoreError. */
  async open(id: string, onTokens: TokensListener | undefined): Promise<Session | undefined> {
    const entry = await this.#entry(id)
    const tokens = await entry?.read()
    if (tokens === storeFailed) throw sessionStoreError('get', 'the session was not opened')
    if (entry === undefined || tokens === undefined) {
      // Named by nothing but this: the id is the user's credential for the session.
      this.#source.context.options.logger.warn(
        "No session under this id: never saved here, expired, deleted, or not this client's",
        { event: 'sessions.unknown_id' },
      )
      return undefined
    }
    const { options, config } = this.#source.context
    return new Session({
      tokens,
      baseUrl: config.baseUrl,
      fetch: options.fetch,
      now: options.now,
      onTokens,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      refresh: sharedRefresh(this.#source, entry, {}),
    })
  }

  /** @throws StoreError. */
  async delete(id: string): Promise<void> {
    const entry = await this.#entry(id)
    if (entry === undefined) return
    if ((await this.#store.delete(entry.tokensKey)) === storeFailed) {
      throw sessionStoreError('delete', 'the session was not deleted')
    }
  }

  #entry(id: string): Promise<SessionEntry | undefined> {
    return SessionEntry.of(id, this.#store, this.#source.context, this.#ttlSeconds)
  }
}
