/**
 * Parts of the client load on demand (ADR 0012). When one cannot be loaded — in a browser, a
 * chunk a deployment replaced — the operation rejects with an `HttpError` (`network`), not the
 * platform's `TypeError`, and nothing is sent. One case per place that loads code.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  type ClientModule,
  clientLoadingThrough,
  launchConfig,
  type RecordingFetch,
  recordingFetch,
  restoreLoading,
  signingConfig,
} from './code-loading.js'
import { baseUrl } from './support.js'

/** The import that fails, as Chromium rejects it. */
const chunkGone = () =>
  Promise.reject(
    new TypeError('Failed to fetch dynamically imported module: https://app.example/chunk.js'),
  )

afterEach(restoreLoading)

/** A fresh copy of the client package in which `path` (relative to this file) cannot load. */
const clientWithout = (path: string) => clientLoadingThrough(path, chunkGone)

const cases: readonly {
  readonly part: string
  readonly path: string
  readonly run: (module: ClientModule, fetch: RecordingFetch) => Promise<unknown>
}[] = [
  {
    part: 'the launch (beginAuthorization)',
    path: '../src/launch/authorization-flow.js',
    run: ({ Client, memoryStore }, fetch) =>
      new Client(launchConfig, { fetch }).beginAuthorization({ store: memoryStore() }),
  },
  {
    part: "session.fetch's rules",
    path: '../src/launch/authorization-flow.js',
    run: ({ Client }, fetch) =>
      new Client(launchConfig, { fetch })
        .resumeSession({ access_token: 'at', expires_in: 3600 })
        .fetch('Patient/1'),
  },
  {
    part: "a session's refresh",
    path: '../src/session/session-refresh.js',
    run: ({ Client }, fetch) =>
      new Client(launchConfig, { fetch })
        .resumeSession({ access_token: 'at', refresh_token: 'rt', expires_in: 3600 })
        .refresh(),
  },
  {
    part: 'ID token validation',
    path: '../src/identity/id-token-validator.js',
    run: ({ Client }, fetch) => new Client(launchConfig, { fetch }).validateIdToken('a.b.c'),
  },
  {
    part: 'SMART registration',
    path: '../src/smart/registration.js',
    run: ({ Client }, fetch) =>
      new Client(launchConfig, { fetch }).registerClient({ client_name: 'app' }),
  },
  {
    part: 'SMART signing (requestBackendToken)',
    path: '../src/smart/smart-signing.js',
    run: ({ Client }, fetch) =>
      new Client(signingConfig, {
        clientType: 'confidential_asymmetric',
        fetch,
      }).requestBackendToken(),
  },
  {
    part: 'the backend token caches',
    path: '../src/tokens/backend-token-caches.js',
    run: ({ Client }, fetch) =>
      new Client(signingConfig, { clientType: 'confidential_asymmetric', fetch })
        .backendTokens()
        .accessToken(),
  },
  {
    part: "smart's client assertion",
    path: '../../smart/src/client-assertion.js',
    run: ({ Client }, fetch) =>
      new Client(signingConfig, {
        clientType: 'confidential_asymmetric',
        fetch,
      }).requestBackendToken(),
  },
  {
    part: "smart's HTTP Basic credentials",
    path: '../../smart/src/symmetric-authentication.js',
    run: ({ Client }, fetch) =>
      new Client(
        { ...launchConfig, clientSecret: 'secret' },
        { clientType: 'confidential_symmetric', fetch },
      ).requestAccessToken({ code: 'code', codeVerifier: 'v'.repeat(43) }),
  },
  {
    part: "this runtime's default crypto backend",
    path: '../src/default-crypto/node.js',
    run: ({ Client }, fetch) =>
      new Client(signingConfig, {
        clientType: 'confidential_asymmetric',
        fetch,
      }).requestBackendToken(),
  },
  {
    part: "SMART's implementation (serverMetadata)",
    path: '../src/smart/smart-protocol.js',
    run: ({ Client }, fetch) => new Client(launchConfig, { fetch }).serverMetadata(),
  },
  {
    // The launch starts loading the implementation beside its own chunk and leaves the failure
    // to the step that needs it: reported once, never an unhandled rejection (vitest fails on one).
    part: "SMART's implementation, loaded beside a launch (beginAuthorization)",
    path: '../src/smart/smart-protocol.js',
    run: ({ Client, memoryStore }, fetch) =>
      new Client(launchConfig, { fetch }).beginAuthorization({ store: memoryStore() }),
  },
  {
    part: "UDAP's implementation",
    path: '../src/udap/udap-protocol.js',
    run: ({ Client }, fetch) =>
      new Client({ baseUrl, clientId: 'app' }, { protocol: 'udap', fetch }).serverMetadata(),
  },
]

describe('a part of the client that cannot be loaded', () => {
  it.each(cases)(
    '$part: HttpError (network), and no token request is sent',
    async ({ path, run }) => {
      const module = await clientWithout(path)
      const { fetch, sent } = recordingFetch()
      const error: unknown = await run(module, fetch).then(
        () => 'resolved',
        (caught: unknown) => caught,
      )
      expect(module.HttpError.isInstance(error)).toBe(true)
      expect(error).toMatchObject({
        reason: 'network',
        message: 'fhir-auth could not load its code (network error)',
      })
      // Discovery may have run before the load; nothing else was sent.
      expect(sent.filter((url) => !url.endsWith('/.well-known/smart-configuration'))).toEqual([])
    },
  )
})
