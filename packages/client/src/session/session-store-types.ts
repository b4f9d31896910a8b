import type { KeyValueStore } from '@fhir-auth/core/essentials'
import type { Session } from './session.js'
import type { TokensListener } from './tokens-listener.js'

// Apart from `session-store.ts`: the code that keeps and opens the sessions, which that module
// loads on demand, implements them, and imports nothing of its loader (ADR 0015).

/** Options of `client.sessions`. */
export interface SessionStoreOptions {
  /**
   * Where sessions are kept: a store every process (or tab) that opens them shares, e.g.
   * `redisStore` from `@fhir-auth/store-redis`, or `indexedDbStore()` for the tabs of a browser
   * (not `webStorageStore(localStorage)`: its lock is not atomic across tabs). Default: the
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
   * new id: 256 bits from the CSPRNG, base64url. From then on the session given refreshes like
   * the sessions opened from the id (under the store's lock, writing the rotated tokens to the
   * store) and keeps its own `onTokens`, called after the store holds the new tokens.
   *
   * @throws ConfigurationError on `session` (not a `Session` of this client); StoreError when
   *   the store fails or does not answer in time.
   */
  save(session: Session): Promise<string>
  /**
   * The session kept under `id`; `undefined` (with a warning naming no secret) when there is
   * none: an id this store never gave out, an expired or deleted one, or a value that is not
   * this client's session (another client's, altered, or sealed with another encryption key).
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
