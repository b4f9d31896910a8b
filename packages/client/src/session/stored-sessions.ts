import {
  ConfigurationError,
  defaultTimeoutMs,
  generateState,
  type KeyValueStore,
  type TokenSet,
} from '@fhir-auth/core/essentials'
import { optionNames, readOptions } from '@fhir-auth/core/internal/checks'
import { underFleetLock } from '../tokens/fleet-lock.js'
import { type GuardedStore, storeFailed } from '../tokens/guarded-store.js'
import type { Session, sessionState } from './session.js'
import type { SessionSource } from './session-source.js'
import type { OpenSessionOptions, SessionStore } from './session-store-types.js'
import {
  guardedSessionStore,
  refused,
  SessionEntry,
  sessionStoreError,
} from './stored-session-entry.js'
import { sharedRefresh } from './stored-session-refresh.js'
import type { optionalListener, TokensListener } from './tokens-listener.js'

/**
 * The main chunk's session code, handed over rather than imported: a static import of it here
 * would move it out of the client's entry chunk into one shared with this chunk, which every
 * app would then load up front (ADR 0012).
 */
export interface SessionParts {
  readonly Session: typeof Session
  readonly optionalListener: typeof optionalListener
  readonly sessionState: typeof sessionState
}

/** The names `open` takes: any other is refused. */
const openOptionNames = optionNames<OpenSessionOptions>({ onTokens: 1 })

/**
 * What a `SessionStore` does once its code has loaded: sessions saved under ids from the CSPRNG
 * and opened as `Session`s whose refreshes the fleet shares (see `sharedRefresh`).
 *
 * @internal
 */
export class StoredSessions implements SessionStore {
  readonly #source: SessionSource
  readonly #store: GuardedStore
  readonly #ttlSeconds: number
  readonly #parts: SessionParts

  constructor(
    source: SessionSource,
    store: KeyValueStore,
    ttlSeconds: number,
    parts: SessionParts,
  ) {
    this.#source = source
    this.#store = guardedSessionStore(store, source.context)
    this.#ttlSeconds = ttlSeconds
    this.#parts = parts
  }

  /**
   * @throws ConfigurationError on `session` (not a `Session`) and `tokens` (another client's
   *   session); StoreError.
   */
  async save(session: Session): Promise<string> {
    if (!(session instanceof this.#parts.Session)) {
      throw new ConfigurationError({
        invalidAttribute: 'session',
        invalidValue: session === null ? 'null' : typeof session,
        message: 'save() takes a Session',
      })
    }
    const { context } = this.#source
    context.checks.checkBinding(session.tokens.binding, context.binding())
    // 256 bits from the CSPRNG, base64url: the user's credential for the session.
    const id = generateState()
    const entry = (await this.#entry(id)) as SessionEntry
    if ((await entry.write(session.tokens)) === storeFailed) {
      throw sessionStoreError('set', 'the session was not saved')
    }
    // From now on it refreshes with the fleet, and its own onTokens hears of it after the store.
    const state = this.#parts.sessionState(session)
    const shared = sharedRefresh(this.#source, entry, {}, state.dependencies.onTokens)
    state.dependencies = { ...state.dependencies, ...shared }
    return id
  }

  /** @throws ConfigurationError on `id` and the options (an unknown option included); StoreError. */
  async open(id: string, input?: OpenSessionOptions): Promise<Session | undefined> {
    const checked = readOptions(input, 'open', { known: openOptionNames, noun: 'option' })
    const onTokens: TokensListener | undefined = this.#parts.optionalListener(checked.onTokens)
    const entry = await this.#entry(sessionId(id))
    const tokens = await entry?.read()
    if (tokens === storeFailed) throw sessionStoreError('get', 'the session was not opened')
    // Warned about by the entry already: one warning for one refused value.
    if (tokens === refused) return undefined
    if (entry === undefined || tokens === undefined) {
      // Named by nothing but this: the id is the user's credential for the session.
      this.#source.context.options.logger.warn(
        "No session under this id: never saved here, expired, deleted, or not this client's",
        { event: 'sessions.unknown_id' },
      )
      return undefined
    }
    const { options, config } = this.#source.context
    const shared = sharedRefresh(this.#source, entry, {}, onTokens)
    return new this.#parts.Session({
      tokens,
      baseUrl: config.baseUrl,
      fetch: options.fetch,
      now: options.now,
      onTokens: shared.onTokens,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      refresh: shared.refresh,
      revoke: this.#source.revoke,
    })
  }

  /** @throws ConfigurationError on `id`; StoreError. */
  async delete(id: string): Promise<void> {
    const entry = await this.#entry(sessionId(id))
    if (entry === undefined) return
    if ((await this.#store.delete(entry.tokensKey)) === storeFailed) {
      throw sessionStoreError('delete', 'the session was not deleted')
    }
  }

  /**
   * Revokes the session's tokens (RFC 7009), then deletes it, under the session's fleet lock: a
   * refresh in flight in any process holds that lock until it has written the rotated tokens,
   * so the tokens revoked are the newest (a rotated refresh token never outlives the sign-out),
   * and a refresh that comes after finds the session gone. A failed revocation is a warning
   * naming only the error's class and OAuth code: the user is signed out here all the same.
   *
   * @throws ConfigurationError on `id`; StoreError.
   * @see docs/adr/0010-backend-tokens-shared-by-a-fleet.md in the fhir-auth repository
   */
  async signOut(id: string): Promise<boolean> {
    const entry = await this.#entry(sessionId(id))
    if (entry === undefined) return false
    return underFleetLock<boolean>(
      {
        ...entry.lockSettings('Session sign-out', 'signing out directly'),
        // Nothing another process writes stands for this sign-out: it is always done here.
        read: async () => undefined,
        isDone: (done): done is boolean => false,
        work: () => this.#signOutNow(entry, id),
      },
      undefined,
    )
  }

  async #signOutNow(entry: SessionEntry, id: string): Promise<boolean> {
    const tokens = await entry.read()
    if (tokens === storeFailed) throw sessionStoreError('get', 'the session was not signed out')
    // Kept tokens that are not this client's (refused) are deleted, never sent anywhere.
    const revoked = tokens !== undefined && tokens !== refused && (await this.#revoke(tokens))
    await this.delete(id)
    return revoked
  }

  /** `true` when the server took the revocation; `false` (with a warning) when it failed. */
  async #revoke(tokens: TokenSet): Promise<boolean> {
    try {
      return await this.#source.revoke(tokens)
    } catch (error) {
      const code = (error as { readonly error?: unknown }).error
      this.#source.context.options.logger.warn(
        `The session's tokens were not revoked (${error instanceof Error ? error.name : 'error'}${typeof code === 'string' ? ` ${code}` : ''}); the session is deleted`,
        { event: 'sessions.revocation_failed' },
      )
      return false
    }
  }

  #entry(id: string): Promise<SessionEntry | undefined> {
    return SessionEntry.of(id, this.#store, this.#source.context, this.#ttlSeconds)
  }
}

/**
 * A session id as given: any string (one this store never gave out is simply not found).
 *
 * @throws ConfigurationError on `id` for anything else.
 */
function sessionId(id: unknown): string {
  if (typeof id === 'string') return id
  throw new ConfigurationError({
    invalidAttribute: 'id',
    invalidValue: id === null ? 'null' : typeof id,
    message: 'a session id is the string save() returned',
  })
}
