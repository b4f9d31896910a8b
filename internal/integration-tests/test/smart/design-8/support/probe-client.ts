/**
 * The app side of the DESIGN §8 probe: a public `Client` wired to the fake SMART server, and
 * the steps of a launch (begin, build the callback, finish into a session) that most tests
 * start from.
 *
 * @see ../../../../../../docs/guides/tokens-over-time.md
 */
import {
  AuthorizationError,
  Client,
  type ClientConfigInput,
  type ClientOptions,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/client'
import { rejectionOf } from '@fhir-auth/test-utils/failure'
import { expect } from 'vitest'
import {
  BASE,
  CLIENT_ID,
  callbackUrl,
  type FakeServer,
  type FakeServerOptions,
  fakeServer,
  ISSUER,
  REDIRECT,
  SCOPES,
} from './fake-smart-server.js'

/** A public client of the fake server, on the server's movable clock. */
export function probeClient(
  server: FakeServer,
  config: ClientConfigInput = {},
  options: ClientOptions = {},
): Client {
  return new Client(
    { baseUrl: BASE, clientId: CLIENT_ID, redirectUri: REDIRECT, scopes: SCOPES, ...config },
    { clientType: 'public', fetch: server.fetch, now: server.clock.now, ...options },
  )
}

/** Expects an {@link AuthorizationError} and returns it, typed. */
export function authorizationErrorOf(error: unknown): AuthorizationError {
  expect(error).toBeInstanceOf(AuthorizationError)
  return error as AuthorizationError
}

/**
 * Begins a launch kept in `store` and shows its authorization URL to the server. Returns the
 * result, its URL parsed, a builder of callback URLs for it (`code-1`, its state and the
 * issuer, changed or left out by `params`), and the refusal of a callback.
 */
export async function begin(client: Client, server: FakeServer, store: KeyValueStore) {
  const begun = await client.beginAuthorization({ store })
  const url = server.authorize(begun.authUrl)
  const callback = (params: Record<string, string | undefined> = {}) =>
    callbackUrl({ code: 'code-1', state: begun.state, iss: ISSUER, ...params })
  /** The {@link AuthorizationError} that finishing this launch with `callbackHref` fails with. */
  const refusal = async (callbackHref: string) =>
    authorizationErrorOf(await rejectionOf(client.completeAuthorization(callbackHref, { store })))
  return { begun, url, callback, refusal }
}

/** A fresh fake server and a probe client of it (arguments in {@link launchedSession}'s order). */
export function freshProbe(
  options: FakeServerOptions = {},
  clientOptions: ClientOptions = {},
  config: ClientConfigInput = {},
) {
  const server = fakeServer(options)
  return { server, client: probeClient(server, config, clientOptions) }
}

/** A launch begun, in a memoryStore, by a probe client of a fresh fake server. */
export async function beginLaunch(
  options: FakeServerOptions = {},
  clientOptions: ClientOptions = {},
  config: ClientConfigInput = {},
) {
  const { server, client } = freshProbe(options, clientOptions, config)
  const store = memoryStore()
  return { server, client, store, ...(await begin(client, server, store)) }
}

/** A launch finished into a session on a fresh fake server. */
export async function launchedSession(
  options: FakeServerOptions = {},
  clientOptions: ClientOptions = {},
  config: ClientConfigInput = {},
) {
  const { server, client, store, callback } = await beginLaunch(options, clientOptions, config)
  const session = await client.completeAuthorization(callback(), { store })
  return { server, client, session, store }
}
