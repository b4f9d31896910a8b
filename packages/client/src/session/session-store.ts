import type { KeyValueStore } from '@fhir-auth/core/essentials'
import { lazy, lazyImport, optionNames, readOptions } from '@fhir-auth/core/internal/checks'
import { ConfigurationError } from '@fhir-auth/core/internal/up-front'
import { defaultLaunchStore } from '#default-launch-store'
import { optionalStore } from '../launch/store-option.js'
import { optionalSeconds } from '../seconds-option.js'
import { Session, type TokensListener } from './session.js'
import { optionalListener, type SessionSource } from './session-factory.js'

/** Options of `client.sessions`. */
export interface SessionStoreOptions {
  /**
   * Where sessions are kept: a store every process (or tab) that opens them shares, e.g.
   * `redisStore` from `@fhir-auth/store-redis` or `webStorageStore(localStorage)`. Default: the
   * store a launch is kept in without one (on Node, one memory store for the process).
   */
  readonly store?: KeyValueStore | undefined
  /** How long a session is kept after its last write (a save or a refresh); default 12 h. */
  readonly ttlSeconds?: number | undefined
}

/** Options of {@link SessionStore.open}. */
export interface OpenSessionOptions {
  /** Awaited after every refresh of the opened session, once the store holds the new tokens. */
  readonly onTokens?: TokensListener | undefined
}

/**
 * Sessions a fleet shares: kept in a {@link KeyValueStore} under an id the app hands to its
 * user (a cookie), and refreshed once per expiry window for every process that opens them. A
 * session opened here rereads the store before it refreshes (another process may have done it),
 * refreshes under a lock in the store, and writes the rotated tokens before it frees the lock, so
 * a refresh token a server rotates is never lost (RFC 9700 §4.14.2).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/tokens-over-time.md
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 RFC 9700 §4.14.2 (refresh token rotation)
 */
export interface SessionStore {
  /**
   * Keeps the session's tokens (serialized, with the server and client they are for) under a
   * new id: 256 bits from the CSPRNG, base64url. The session given keeps its own `onTokens` and
   * refreshes on its own: open the id to share its refreshes with the fleet.
   *
   * @throws ConfigurationError on `session` (not a `Session` of this client); StoreError when
   *   the store fails or does not answer in time.
   */
  save(session: Session): Promise<string>
  /**
   * The session kept under `id`; `undefined` (with a warning naming no secret) when there is
   * none: an id this store never gave out, an expired or deleted one, or tokens that are not
   * this client's.
   *
   * @throws ConfigurationError on the options; StoreError when the store fails or does not
   *   answer in time.
   */
  open(id: string, options?: OpenSessionOptions): Promise<Session | undefined>
  /** Forgets the session: every process's next refresh of it fails; nothing is revoked. */
  delete(id: string): Promise<void>
  /**
   * Signs the user out: revokes the session's tokens at the server (RFC 7009, as
   * `session.revoke()` does), then deletes the session. Resolves `true` when the server took
   * the revocation; `false` when there was no session, the server advertises no
   * `revocation_endpoint`, or the revocation failed (a warning, naming no token, says why): the
   * session is deleted in every case.
   *
   * @throws ConfigurationError on `id`; StoreError when the store fails (the session may then
   *   still be kept).
   * @see https://www.rfc-editor.org/rfc/rfc7009 RFC 7009
   */
  signOut(id: string): Promise<boolean>
}

/** The names `client.sessions` takes: any other is refused. */
const sessionStoreOptionNames = optionNames<SessionStoreOptions>({ store: 1, ttlSeconds: 1 })

/** Twelve hours: a working day's sessions, refreshed on every write. */
const defaultTtlSeconds = 12 * 60 * 60

/**
 * A session time to live as given: a positive number of seconds, or none (the default).
 *
 * @throws ConfigurationError on `ttlSeconds` for anything else.
 * @internal
 */
export function checkSessionTtl(value: unknown): number | undefined {
  const ttlSeconds = optionalSeconds(value ?? undefined, 'ttlSeconds')
  if (ttlSeconds === 0) {
    throw new ConfigurationError({
      invalidAttribute: 'ttlSeconds',
      invalidValue: 0,
      message: 'ttlSeconds must be more than 0',
    })
  }
  return ttlSeconds
}

/**
 * What a `SessionStore` does (its arguments' checks included), loaded by its first call: an app
 * that keeps no sessions in a store never downloads it.
 */
const storedSessionsModule = lazyImport(() => import('./stored-sessions.js'))

/**
 * `client.sessions(options)`: the options are checked now; the code that keeps and opens
 * sessions loads with the first call.
 *
 * @throws ConfigurationError on the options (an unknown option included), on `store` (none
 *   given where there is no default: browsers) and on `ttlSeconds` (not a positive number).
 * @internal
 */
export function sessionStore(source: SessionSource, input: unknown): SessionStore {
  const options = readOptions(input as SessionStoreOptions | undefined, 'sessions', {
    known: sessionStoreOptionNames,
    noun: 'option',
  })
  const store = optionalStore(options.store) ?? defaultLaunchStore()
  if (store === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'store',
      message:
        'sessions() needs a store outside Node: webStorageStore(localStorage), redisStore()…',
    })
  }
  const ttlSeconds = checkSessionTtl(options.ttlSeconds)
  const sessions = lazy(() =>
    storedSessionsModule().then(
      ({ StoredSessions }) =>
        new StoredSessions(source, store, ttlSeconds ?? defaultTtlSeconds, {
          Session,
          optionalListener,
        }),
    ),
  )
  return {
    save: async (session) => (await sessions()).save(session),
    open: async (id, options) => (await sessions()).open(id, options),
    delete: async (id) => (await sessions()).delete(id),
    signOut: async (id) => (await sessions()).signOut(id),
  }
}
