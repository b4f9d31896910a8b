import type { KeyValueStore } from '@fhir-auth/core/essentials'
import type { Client } from '../client.js'
import type { AuthorizationUrlOptions } from '../operation-options.js'

/**
 * Finds the client for an `iss` no listed client answers to (e.g. in a database). It gets the
 * `iss` as checked (a plain HTTPS or HTTP URL), one trailing `/` removed, and must give a client
 * whose `config.baseUrl` is that URL, or `undefined`.
 */
export type ClientResolver = (iss: string) => Client | undefined | Promise<Client | undefined>

/** Options of `new ClientDirectory`. */
export interface ClientDirectoryOptions {
  /** The clients the directory knows from the start; each answers to its `config.baseUrl`. */
  readonly clients?: readonly Client[] | undefined
  /**
   * Called for an `iss` (already checked to be a plain HTTPS or HTTP URL) that no listed client
   * answers to. A client it returns is kept for the life of the directory; `undefined` or a
   * rejection is not kept, so the next launch for that `iss` asks again.
   */
  readonly resolve?: ClientResolver | undefined
  /**
   * Where launches wait for their callback and where `sessions()` keeps sessions, for every
   * client of the directory: a store all processes share (e.g. `redisStore`) when the callback
   * may reach another process. Default: `memoryStore()` (one per directory).
   */
  readonly store?: KeyValueStore | undefined
}

/** Options of `directory.beginAuthorization`. */
export interface DirectoryBeginAuthorizationOptions
  extends Pick<AuthorizationUrlOptions, 'launch' | 'customScopes' | 'method'> {
  /** The FHIR base URL of the EHR to launch with: the `iss` of an EHR launch. */
  readonly iss: string
}

/** Options of `directory.sessions`. */
export interface DirectorySessionsOptions {
  /** How long a session is kept after its last write (a save or a refresh); default 12 h. */
  readonly ttlSeconds?: number | undefined
  /**
   * Where the sessions are kept (e.g. a store shared by the processes that serve the app, apart
   * from the launches); default: the directory's store.
   */
  readonly store?: KeyValueStore | undefined
}
