import {
  Client,
  type ClientOptions,
  type KeyValueStore,
  memoryStore,
  type Session,
} from '@fhir-auth/client'

/** One client per authorization server. Construction does no I/O. */
export function createEhrClient(options?: ClientOptions): Client {
  return new Client(
    {
      baseUrl: 'https://ehr.example.org/fhir',
      clientId: 'my-app',
      redirectUri: 'https://app.example.org/callback',
      scopes: ['launch', 'openid', 'fhirUser', 'patient/*.rs', 'offline_access'],
    },
    options, // e.g. { logger: console, timeoutMs: 5_000 }
  )
}

/**
 * Where launches wait for their callback, each under a key derived from its `state`:
 * memoryStore() in one process, webStorageStore(sessionStorage) in a browser tab,
 * redisStore(redis) from @fhir-auth/store-redis for several processes.
 */
export const store: KeyValueStore = memoryStore()

/** Step 1, on `/launch?iss=…&launch=…`: discover the server, keep the launch, redirect. */
export async function startLaunch(client: Client, launch: string) {
  const { authUrl, state } = await client.beginAuthorization({ store, launch })
  // Keep `state` in the user's session too: it binds the callback to this browser.
  return { redirectTo: authUrl, state }
}

/**
 * Step 2, on `/callback?code=…&state=…`: the callback is checked (error, state, RFC 9207 iss,
 * code), the code exchanged and the ID token validated.
 */
export async function finishLaunch(client: Client, callbackUrl: string): Promise<Session> {
  const session = await client.completeAuthorization(callbackUrl, { store })
  // session.tokens.patient is a string | undefined (typed SMART context); fhirUser and
  // idTokenClaims say who signed in, from the validated ID token.
  return session
}

/** Any time later: FHIR with the token, refreshed first when it is about to expire. */
export async function readPatient(session: Session): Promise<unknown> {
  const response = await session.fetch(`Patient/${session.tokens.patient}`)
  return response.json()
}

/** In another request or process: the session from what was saved (it holds tokens: encrypt it). */
export function resumeLater(
  client: Client,
  saved: string, // session.tokens.serialize()
  save: (serialized: string) => Promise<void>,
): Session {
  return client.resumeSession(saved, { onTokens: (tokens) => save(tokens.serialize()) })
}
