import {
  type BeginAuthorizationResult,
  type Client,
  type ClientDirectory,
  ConfigurationError,
  type KeyValueStore,
  type Session,
  type SessionStore,
} from '@fhir-auth/client'

/**
 * What the web app needs from its clients: the shape of `ClientDirectory` (launches routed by
 * `iss` and completed by `state`, one session store), so one `Client` is served the same way as
 * a directory of many.
 */
export interface LaunchClients {
  /** The `iss` to use when a standalone login names none: set only when there is one client. */
  readonly soleIssuer: string | undefined
  /**
   * Begins a launch at the client that answers to `iss`.
   *
   * @throws ConfigurationError on `iss` before any request when no client answers to it.
   */
  beginAuthorization(options: {
    readonly iss: string
    readonly launch?: string | undefined
  }): Promise<BeginAuthorizationResult>
  /** Completes the launch the callback's `state` names, with the client that began it. */
  completeAuthorization(callbackUrl: string): Promise<Session>
  /** One session store for every client. */
  sessions(options: { readonly ttlSeconds: number }): SessionStore
}

/**
 * The FHIR base URL compared the way an `iss` is matched: exactly, except one trailing `/`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-ehr-launch the `iss` launch parameter
 */
export function issuerKey(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url
}

/**
 * One `Client` as {@link LaunchClients}: it answers to its own `baseUrl` only, and keeps its
 * launches and sessions in `store`.
 *
 * @throws ConfigurationError on `clients` when the client has no `baseUrl` (nothing to match an
 *   `iss` against).
 */
export function singleClient(client: Client, store: KeyValueStore): LaunchClients {
  const baseUrl = client.config.baseUrl
  if (baseUrl === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'clients',
      message:
        'smartWebApp needs a client with a baseUrl: the iss of a launch is matched against it',
    })
  }
  const checkIssuer = (iss: string): void => {
    if (issuerKey(iss) !== issuerKey(baseUrl)) {
      throw new ConfigurationError({
        invalidAttribute: 'iss',
        message: 'no client of this app answers to the iss of the launch',
      })
    }
  }
  return {
    soleIssuer: baseUrl,
    async beginAuthorization({ iss, launch }) {
      checkIssuer(iss)
      return client.beginAuthorization(launch === undefined ? { store } : { store, launch })
    },
    completeAuthorization: (callbackUrl) => client.completeAuthorization(callbackUrl, { store }),
    sessions: ({ ttlSeconds }) => client.sessions({ store, ttlSeconds }),
  }
}

/**
 * A `ClientDirectory` as {@link LaunchClients}: it refuses an unknown `iss` before any request
 * and routes each callback by `state` to the client that began the launch. A standalone login
 * may leave out its `iss` only when the directory lists one client and resolves no other; its
 * sessions are kept in `sessionStore` when given, else in the directory's store.
 */
export function directoryClients(
  directory: ClientDirectory,
  sessionStore: KeyValueStore | undefined,
): LaunchClients {
  const [sole, ...others] = directory.listed
  return {
    soleIssuer:
      sole !== undefined && others.length === 0 && !directory.resolves
        ? sole.config.baseUrl
        : undefined,
    beginAuthorization: ({ iss, launch }) =>
      directory.beginAuthorization(launch === undefined ? { iss } : { iss, launch }),
    completeAuthorization: (callbackUrl) => directory.completeAuthorization(callbackUrl),
    sessions: ({ ttlSeconds }) => directory.sessions({ ttlSeconds, store: sessionStore }),
  }
}
