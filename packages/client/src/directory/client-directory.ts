import {
  AuthorizationError,
  ConfigurationError,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/core/essentials'
import { optionNames, readOptions } from '@fhir-auth/core/internal/checks'
import type { Client } from '../client.js'
import { checkCallbackBeforeState, readCallback } from '../launch/authorization-callback.js'
import { optionalStore } from '../launch/store-option.js'
import type { BeginAuthorizationResult } from '../operation-options.js'
import type { Session } from '../session/session.js'
import { checkSessionTtl } from '../session/session-store.js'
import type { SessionStore } from '../session/session-store-types.js'
import { DirectoryClients } from './directory-clients.js'
import { launchBaseUrl } from './directory-launches.js'
import type {
  ClientDirectoryOptions,
  DirectoryBeginAuthorizationOptions,
  DirectorySessionsOptions,
} from './directory-options.js'
import { directorySessions } from './directory-sessions.js'

const directoryOptionNames = optionNames<ClientDirectoryOptions>({
  clients: 1,
  resolve: 1,
  store: 1,
})
const beginOptionNames = optionNames<DirectoryBeginAuthorizationOptions>({
  iss: 1,
  launch: 1,
  customScopes: 1,
  method: 1,
})
const sessionsOptionNames = optionNames<DirectorySessionsOptions>({ ttlSeconds: 1, store: 1 })

/**
 * The clients of an app that many EHRs launch (an app gallery listing): one {@link Client} per
 * EHR registration, found by the `iss` of the launch. An `iss` no client answers to is refused
 * before anything is fetched (a stranger's URL is never discovered). Every client keeps its
 * launches in the directory's store, and the callback (one redirect URI may serve them all) is
 * completed by the client that began the launch, found by `state`, with all of that client's
 * checks: the callback's RFC 9207 `iss` must be that client's bound issuer, so an EHR of the
 * directory that claims another's issuer cannot mix up launches.
 *
 * @example
 * ```ts
 * const ehrs = new ClientDirectory({ clients: [epic, cerner], store: redisStore({ client }) })
 * // GET /launch?iss=…&launch=…
 * const { authUrl } = await ehrs.beginAuthorization({ iss, launch })
 * // GET /callback?code=…&state=…
 * const session = await ehrs.completeAuthorization(request.url)
 * const id = await ehrs.sessions().save(session)
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-ehr-launch SMART EHR launch
 * @see https://www.rfc-editor.org/rfc/rfc9207 RFC 9207 (authorization server issuer identification)
 */
export class ClientDirectory {
  readonly #clients: DirectoryClients
  readonly #store: KeyValueStore
  /**
   * One `SessionStore` per store and time to live: its clients' stores and their state are
   * reused.
   */
  readonly #sessions = new WeakMap<KeyValueStore, Map<number | undefined, SessionStore>>()

  /**
   * @throws ConfigurationError on the options (an unknown option included), on `clients` (not
   *   an array of `Client`s, a client without `baseUrl`, two clients with the same `baseUrl`),
   *   `resolve` (not a function) and `store`.
   */
  constructor(options?: ClientDirectoryOptions) {
    const checked = readOptions(options, 'ClientDirectory', {
      known: directoryOptionNames,
      noun: 'option',
    })
    this.#clients = new DirectoryClients(checked.clients, checked.resolve)
    this.#store = optionalStore(checked.store) ?? memoryStore()
  }

  /**
   * The clients given as `clients` to the constructor, in their order (not those `resolve`
   * found). Read-only: a directory's listed clients never change.
   */
  get listed(): readonly Client[] {
    return this.#clients.listed
  }

  /**
   * Whether the directory was given `resolve`: an `iss` no listed client answers to may then
   * still find a client (so a launch without `iss` cannot mean the one listed client).
   */
  get resolves(): boolean {
    return this.#clients.resolves
  }

  /**
   * The client answering to `iss`: a listed client whose `config.baseUrl` is `iss` (one trailing
   * `/` aside), else what `resolve` gives for it. Nothing is fetched.
   *
   * @throws ConfigurationError on `iss` when it is not a plain HTTPS URL or no client answers to
   *   it (the message names it); on `resolve` when it gives something else than a `Client` for
   *   that base URL; whatever `resolve` throws.
   */
  async client(iss: string): Promise<Client> {
    return this.#clients.find(iss)
  }

  /**
   * `client.beginAuthorization` on the client answering to `iss`, the launch kept in the
   * directory's store. Redirect to `authUrl` (or post `params` to it).
   *
   * @throws ConfigurationError on the options and `iss` (as {@link ClientDirectory.client},
   *   before any request), then as `client.beginAuthorization`; DiscoveryError; StoreError.
   */
  async beginAuthorization(
    options: DirectoryBeginAuthorizationOptions,
  ): Promise<BeginAuthorizationResult> {
    const { iss, ...request } = readOptions(options, 'beginAuthorization', {
      known: beginOptionNames,
      noun: 'option',
      required: true,
    })
    const client = await this.#clients.find(iss)
    return client.beginAuthorization({ ...request, store: this.#store })
  }

  /**
   * Finishes a launch begun by {@link ClientDirectory.beginAuthorization}: the callback goes to
   * the client that began the launch its `state` names, and that client completes it (RFC 9207
   * `iss`, the code exchange, the ID token) as `client.completeAuthorization` does.
   *
   * @throws AuthorizationError for an `error` parameter, and `state_mismatch` for a callback
   *   without `state` or whose launch is unknown, expired, used, or not begun through a client
   *   of this directory (no token request is sent); then as `client.completeAuthorization`.
   */
  async completeAuthorization(callbackUrl: string | URL | URLSearchParams): Promise<Session> {
    const state = checkCallbackBeforeState(readCallback(callbackUrl))
    const baseUrl = await launchBaseUrl(this.#store, state)
    const client =
      baseUrl === undefined
        ? undefined
        : await this.#clients.find(baseUrl).catch((error: unknown) => {
            // A launch of a client no longer in the directory: nobody here can complete it.
            if (error instanceof ConfigurationError) return undefined
            throw error
          })
    if (client === undefined) {
      throw new AuthorizationError({
        error: 'state_mismatch',
        state,
        message:
          'no launch of this directory is kept for this state: it is unknown, expired, already used, or begun elsewhere',
      })
    }
    return client.completeAuthorization(callbackUrl, { store: this.#store })
  }

  /**
   * One {@link SessionStore} for every client of the directory, in `store` (default: the
   * directory's store): a session is opened, refreshed and revoked by the client whose tokens
   * it holds.
   *
   * @throws ConfigurationError on the options (`ttlSeconds` not a positive number, `store` not
   *   a `KeyValueStore`, an unknown option).
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/tokens-over-time.md
   */
  sessions(options?: DirectorySessionsOptions): SessionStore {
    const checked = readOptions(options, 'sessions', {
      known: sessionsOptionNames,
      noun: 'option',
    })
    const ttl = checkSessionTtl(checked.ttlSeconds)
    const store = optionalStore(checked.store) ?? this.#store
    let byTtl = this.#sessions.get(store)
    if (byTtl === undefined) {
      byTtl = new Map()
      this.#sessions.set(store, byTtl)
    }
    let sessions = byTtl.get(ttl)
    if (sessions === undefined) {
      sessions = directorySessions(this.#clients, store, ttl)
      byTtl.set(ttl, sessions)
    }
    return sessions
  }
}
