/**
 * The operations of DESIGN §8 for the abort-safety run (`abort-run.ts`): `beginAuthorization`,
 * `completeAuthorization`, `validateIdToken`, and a session's `accessToken` (with a refresh),
 * `refresh` and `fetch`, against the SMART sandbox. What each case needs first — a launch kept
 * in a store and played through the sandbox, a signed-in session with a refresh token not yet
 * used — is made by a setup client with Node's `fetch`, so the case's client sends only the
 * operation's own requests (a signal aborted before the call must send none).
 */
import {
  Client,
  type ClientConfigInput,
  type KeyValueStore,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import { type SmartSandbox, sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import type { AbortOperation } from './abort-operation.js'

/** An hour ahead: a session's access token (3600 s) has expired, so `accessToken()` refreshes. */
const anHourLater = () => new Date(Date.now() + 3_600_000)

export function sessionOperations(sandbox: SmartSandbox): AbortOperation[] {
  const config: ClientConfigInput = {
    baseUrl: sandbox.fhirBaseUrl,
    allowInsecureLocalhost: true,
    clientId: 'abort-public',
    redirectUri: sandboxDefaultRedirectUri,
    scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
  }
  const setupClient = new Client(config, { logger: silentLogger })

  /** A launch begun by the setup client and played through the sandbox: its callback URL. */
  const keptLaunch = async (store: KeyValueStore): Promise<string> => {
    const { authUrl } = await setupClient.beginAuthorization({ store })
    const result = await sandbox.authorize({ url: authUrl })
    if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
    return result.redirectUrl.href
  }
  /** A fresh sign-in: its tokens, serialized (a refresh token no one has used yet). */
  const signedIn = async (): Promise<string> => {
    const store = memoryStore()
    const session = await setupClient.completeAuthorization(await keptLaunch(store), { store })
    return session.tokens.serialize()
  }
  let idToken: Promise<string> | undefined
  const anIdToken = () => {
    idToken ??= signedIn().then((saved) => JSON.parse(saved).raw.id_token as string)
    return idToken
  }

  const operation = (
    name: string,
    call: AbortOperation['call'],
    options: AbortOperation['options'] = {},
  ): AbortOperation => ({
    name,
    protocol: 'smart',
    config,
    options: { clientType: 'public', ...options },
    unaborted: 'fulfilled',
    call,
  })
  return [
    operation('beginAuthorization (store)', (client, signal) =>
      client.beginAuthorization({ store: memoryStore(), method: 'post', signal }),
    ),
    operation('completeAuthorization (store)', async (client, signal) => {
      const store = memoryStore()
      const callbackUrl = await keptLaunch(store)
      return client.completeAuthorization(callbackUrl, { store, signal })
    }),
    operation('validateIdToken', async (client, signal) =>
      client.validateIdToken(await anIdToken(), { signal }),
    ),
    operation(
      'session.accessToken (refresh)',
      async (client, signal) => client.resumeSession(await signedIn()).accessToken({ signal }),
      { now: anHourLater },
    ),
    operation('session.refresh', async (client, signal) =>
      client.resumeSession(await signedIn()).refresh({ signal }),
    ),
    operation('session.fetch', async (client, signal) =>
      client.resumeSession(await signedIn()).fetch('Patient/patient-1', { signal: signal ?? null }),
    ),
  ]
}
