import {
  ConfigurationError,
  type KeyValueStore,
  StoreError,
  TokenSet,
} from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal/checks'
import type { Client } from '../client.js'
import { Session } from '../session/session.js'
import type { OpenSessionOptions, SessionStore } from '../session/session-store-types.js'
import { sessionTokensKey } from '../session/stored-session-entry.js'
import type { DirectoryClients } from './directory-clients.js'
import { directoryStoreRead } from './store-call.js'

/**
 * One {@link SessionStore} for every client of a directory. A session is kept by the store of
 * the client whose tokens it holds (`client.sessions()` on the directory's store), and the
 * serialized tokens name their FHIR base URL (their binding), so `open` gives the session back
 * through that client: the client then checks the whole binding (token endpoint, issuer, client
 * id) before it uses the tokens, and a session is never refreshed, revoked or sent through
 * another EHR's client.
 *
 * @internal
 */
export function directorySessions(
  clients: DirectoryClients,
  store: KeyValueStore,
  ttlSeconds: number | undefined,
): SessionStore {
  const stores = new WeakMap<Client, SessionStore>()
  const storeOf = (client: Client) => {
    let sessions = stores.get(client)
    if (sessions === undefined) {
      sessions = client.sessions({ store, ttlSeconds })
      stores.set(client, sessions)
    }
    return sessions
  }
  /** The client whose session is kept under `id`, `undefined` when there is none. */
  const owner = async (id: unknown): Promise<Client | undefined> => {
    if (typeof id !== 'string') {
      throw new ConfigurationError({
        invalidAttribute: 'id',
        invalidValue: describeKind(id),
        message: 'a session id is the string save() returned',
      })
    }
    const key = await sessionTokensKey(id)
    if (key === undefined) return undefined
    const text = await directoryStoreRead('a session', () => store.get(key)).catch(
      (error: unknown) => {
        // A value the store cannot open (sealed with another key, altered) is nobody's session,
        // as `client.sessions().open` treats it; a store that fails stays a StoreError.
        if (error instanceof StoreError && error.reason === 'unreadable') return undefined
        throw error
      },
    )
    const baseUrl =
      typeof text === 'string' ? TokenSet.deserialize(text)?.binding?.baseUrl : undefined
    if (baseUrl === undefined) return undefined
    return clients.find(baseUrl).catch((error: unknown) => {
      // A base URL no client answers to any more: the session is nobody's.
      if (error instanceof ConfigurationError) return undefined
      throw error
    })
  }
  return {
    async save(session) {
      const baseUrl = session instanceof Session ? session.tokens.binding?.baseUrl : undefined
      const client = baseUrl === undefined ? undefined : clients.known(baseUrl)
      if (client === undefined) {
        throw new ConfigurationError({
          invalidAttribute: 'session',
          invalidValue: session instanceof Session ? 'Session' : describeKind(session),
          message: 'save() takes a Session of a client of this directory',
        })
      }
      return storeOf(client).save(session)
    },
    async open(id, options?: OpenSessionOptions) {
      const client = await owner(id)
      return client === undefined ? undefined : storeOf(client).open(id, options)
    },
    async delete(id) {
      const client = await owner(id)
      if (client !== undefined) await storeOf(client).delete(id)
    },
    async signOut(id) {
      const client = await owner(id)
      return client === undefined ? false : storeOf(client).signOut(id)
    },
  }
}
