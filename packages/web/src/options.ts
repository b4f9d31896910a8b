import {
  Client,
  ClientDirectory,
  ConfigurationError,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/client'
import { type CookieSettings, cookieNamePattern } from './cookies.js'
import { directoryClients, type LaunchClients, singleClient } from './launch-clients.js'

/** The paths of the four routes; each is matched exactly. */
export interface SmartWebAppRoutes {
  /** EHR launch, `GET ?iss=…&launch=…`. Default `/launch`. */
  readonly launch?: string | undefined
  /** Standalone launch, `GET [?iss=…]`. Default `/login`. */
  readonly login?: string | undefined
  /** The redirect URI's path, `GET`. Default `/callback`. */
  readonly callback?: string | undefined
  /** Sign-out, `POST`. Default `/logout`. */
  readonly logout?: string | undefined
}

/** The session cookie's settings. */
export interface SmartWebAppCookieOptions {
  /** The base name; `__Host-` is put in front of it when the cookie is `Secure`. Default `fhir-auth`. */
  readonly name?: string | undefined
  /** Forces `Secure` on or off; default: on, except for plain `http:` to a loopback host. */
  readonly secure?: boolean | undefined
  /** The session cookie's lifetime, and the session's in the store. Default 12 h. */
  readonly maxAgeSeconds?: number | undefined
}

/** Options of {@link smartWebApp}. */
export interface SmartWebAppOptions {
  /**
   * The app's clients: a `ClientDirectory` (one client per EHR, found by the launch's `iss`), or
   * one `Client` (it answers to its own `baseUrl`).
   */
  readonly clients: ClientDirectory | Client
  /**
   * Where sessions are kept (and launches, with one `Client`): a shared store (e.g.
   * `redisStore`) when several processes serve the app. Default: the `ClientDirectory`'s store,
   * or `memoryStore()` (one process) with one `Client`. A `ClientDirectory` keeps launches in its
   * own store.
   */
  readonly store?: KeyValueStore | undefined
  readonly routes?: SmartWebAppRoutes | undefined
  /** Where a completed sign-in lands. Default `/`. */
  readonly afterLogin?: string | undefined
  /** Where sign-out lands. Default `/`. */
  readonly afterLogout?: string | undefined
  readonly cookie?: SmartWebAppCookieOptions | undefined
}

/** The checked settings of a web app. */
export interface WebAppSettings {
  readonly clients: LaunchClients
  readonly routes: Readonly<Record<keyof SmartWebAppRoutes, string>>
  readonly afterLogin: string
  readonly afterLogout: string
  readonly cookie: CookieSettings
}

const optionNames = ['clients', 'store', 'routes', 'afterLogin', 'afterLogout', 'cookie']
const routeNames = ['launch', 'login', 'callback', 'logout'] as const
const cookieOptionNames = ['name', 'secure', 'maxAgeSeconds']
const defaultMaxAgeSeconds = 12 * 60 * 60

/**
 * Checks the options of `smartWebApp` and fills in the defaults.
 *
 * @throws ConfigurationError naming the option: an unknown name (the message lists the valid
 *   ones), a missing or wrong `clients`, a route that is not an absolute path or is used twice,
 *   a cookie name that is not a token, a lifetime that is not a positive whole number.
 */
export function readSettings(options: SmartWebAppOptions): WebAppSettings {
  const given = record(options, 'options')
  refuseUnknown(given, optionNames, 'smartWebApp')
  return {
    clients: readClients(given.clients, given.store),
    routes: readRoutes(given.routes),
    afterLogin: readTarget(given.afterLogin, 'afterLogin'),
    afterLogout: readTarget(given.afterLogout, 'afterLogout'),
    cookie: readCookieSettings(given.cookie),
  }
}

function readClients(value: unknown, store: unknown): LaunchClients {
  if (value instanceof Client) return singleClient(value, readStore(store))
  if (value instanceof ClientDirectory) {
    return directoryClients(value, store === undefined ? undefined : readStore(store))
  }
  throw new ConfigurationError({
    invalidAttribute: 'clients',
    message: 'clients must be a ClientDirectory or a Client',
  })
}

function readStore(value: unknown): KeyValueStore {
  if (value === undefined) return memoryStore()
  const store = value as Partial<KeyValueStore> | null
  const methods = ['get', 'set', 'delete', 'setIfAbsent'] as const
  if (
    typeof store !== 'object' ||
    store === null ||
    methods.some((name) => typeof store[name] !== 'function')
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'store',
      message: 'store must be a KeyValueStore (get, set, delete, setIfAbsent)',
    })
  }
  return store as KeyValueStore
}

function readRoutes(value: unknown): WebAppSettings['routes'] {
  const given = value === undefined ? {} : record(value, 'routes')
  refuseUnknown(given, routeNames, 'routes')
  const routes = {
    launch: readPath(given.launch, '/launch', 'routes.launch'),
    login: readPath(given.login, '/login', 'routes.login'),
    callback: readPath(given.callback, '/callback', 'routes.callback'),
    logout: readPath(given.logout, '/logout', 'routes.logout'),
  }
  if (new Set(Object.values(routes)).size !== routeNames.length) {
    throw new ConfigurationError({
      invalidAttribute: 'routes',
      message: 'each route needs a path of its own',
    })
  }
  return routes
}

/**
 * A route: an absolute path of plain URL path characters (RFC 3986 `pchar` without
 * percent-encoding), so it is matched exactly against a request URL's `pathname`.
 */
const routePattern = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$|^\/$/

function readPath(value: unknown, fallback: string, attribute: string): string {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !routePattern.test(value)) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      message: `${attribute} must be an absolute path such as /launch, without query or encoding`,
    })
  }
  return value
}

/** A redirect target: a path on this site or an absolute `http(s)` URL. */
function readTarget(value: unknown, attribute: string): string {
  if (value === undefined) return '/'
  if (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//')) return value
  if (typeof value === 'string' && /^https?:$/.test(parsedUrl(value)?.protocol ?? '')) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    message: `${attribute} must be a path on this site (/…) or an http(s) URL`,
  })
}

function readCookieSettings(value: unknown): CookieSettings {
  const given = value === undefined ? {} : record(value, 'cookie')
  refuseUnknown(given, cookieOptionNames, 'cookie')
  const name = given.name ?? 'fhir-auth'
  if (typeof name !== 'string' || !cookieNamePattern.test(name) || name.startsWith('__')) {
    throw new ConfigurationError({
      invalidAttribute: 'cookie.name',
      message: 'cookie.name must be a cookie token (letters, digits, - _ .) not starting with __',
    })
  }
  const secure = given.secure
  if (secure !== undefined && typeof secure !== 'boolean') {
    throw new ConfigurationError({
      invalidAttribute: 'cookie.secure',
      message: 'cookie.secure must be true or false',
    })
  }
  const maxAgeSeconds = given.maxAgeSeconds ?? defaultMaxAgeSeconds
  if (
    typeof maxAgeSeconds !== 'number' ||
    !Number.isSafeInteger(maxAgeSeconds) ||
    maxAgeSeconds <= 0
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'cookie.maxAgeSeconds',
      message: 'cookie.maxAgeSeconds must be a positive whole number of seconds',
    })
  }
  return { name, secure, maxAgeSeconds }
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

function record(value: unknown, attribute: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      message: `${attribute} must be an object`,
    })
  }
  return value as Record<string, unknown>
}

function refuseUnknown(
  given: Record<string, unknown>,
  known: readonly string[],
  where: string,
): void {
  const unknown = Object.keys(given).filter((name) => !known.includes(name))
  const [first] = unknown
  if (first !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: first,
      message: `${where}: unknown option ${unknown.map((name) => JSON.stringify(name)).join(', ')}; valid names: ${known.join(', ')}`,
    })
  }
}
