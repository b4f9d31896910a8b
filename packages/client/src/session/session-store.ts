import { lazy, lazyImport, optionNames, readOptions } from '@fhir-auth/core/internal/checks'
import { ConfigurationError } from '@fhir-auth/core/internal/up-front'
import { defaultLaunchStore } from '#default-launch-store'
import { optionalStore } from '../launch/store-option.js'
import { optionalSeconds } from '../seconds-option.js'
import { Session, sessionState } from './session.js'
import type { SessionSource } from './session-source.js'
import type { SessionStore, SessionStoreOptions } from './session-store-types.js'
import { optionalListener } from './tokens-listener.js'

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
export function sessionStore(source: SessionSource<Session>, input: unknown): SessionStore {
  const options = readOptions(input as SessionStoreOptions | undefined, 'sessions', {
    known: sessionStoreOptionNames,
    noun: 'option',
  })
  const store = optionalStore(options.store) ?? defaultLaunchStore()
  if (store === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'store',
      message:
        'sessions() needs a store outside Node: indexedDbStore() in a browser, redisStore()…',
    })
  }
  const ttlSeconds = checkSessionTtl(options.ttlSeconds)
  const sessions = lazy(() =>
    storedSessionsModule().then(
      ({ StoredSessions }) =>
        new StoredSessions(source, store, ttlSeconds ?? defaultTtlSeconds, {
          Session,
          optionalListener,
          sessionState,
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
