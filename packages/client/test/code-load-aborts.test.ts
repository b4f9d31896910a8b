/**
 * A caller's `signal` ends the wait for code still loading on demand (ADR 0012; issue 24
 * finding 15). One case per place that loads code: the part is made to load forever (a chunk a
 * slow network never delivers) or to finish — or fail — only after the caller gave up. The
 * operation rejects promptly with the abort error it gives anywhere else (its class, with the
 * `HttpError` `aborted` cause every caller-side abort carries), nothing is sent, and the late
 * end of the load is never an unhandled rejection.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type ClientModule,
  clientLoadingThrough,
  signingConfig as discoveringSigningConfig,
  launchConfig,
  type RecordingFetch,
  recordingFetch,
  restoreLoading,
} from './code-loading.js'
import { baseUrl, smartConfiguration } from './support.js'

/** How the mocked part loads: never, or after `ms`, then fine or failed. */
type Loading = 'never' | { readonly ms: number; readonly outcome: 'loads' | 'fails' }

let loads = 0

/** Rejections nobody handled while a test ran (Node would end the process for each by default). */
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)

beforeEach(() => {
  unhandled.length = 0
  loads = 0
  process.on('unhandledRejection', onUnhandled)
})

afterEach(async () => {
  // Past every late load (they end within 100 ms); rejection events follow the microtasks.
  await new Promise((resolve) => setTimeout(resolve, 150))
  process.off('unhandledRejection', onUnhandled)
  restoreLoading()
  expect(unhandled).toEqual([])
})

/** A fresh copy of the client package in which `path` (relative to this file) loads as told. */
function clientLoading(path: string, loading: Loading) {
  return clientLoadingThrough(
    path,
    (real) => {
      loads++
      if (loading === 'never') return new Promise(() => {})
      return new Promise((resolve, reject) =>
        setTimeout(
          () =>
            loading.outcome === 'loads'
              ? resolve(real)
              : reject(new TypeError('Failed to fetch dynamically imported module')),
          loading.ms,
        ),
      )
    },
    { withReal: true },
  )
}

const signingConfig = {
  ...discoveringSigningConfig,
  tokenEndpoint: smartConfiguration.token_endpoint,
}
const callback = 'https://app.example.org/callback?code=c0de&state=s1'

interface Case {
  readonly part: string
  readonly path: string
  /** The error class the caller gets. */
  readonly error: string
  readonly run: (
    module: ClientModule,
    fetch: RecordingFetch,
    signal: AbortSignal,
  ) => Promise<unknown>
}

const cases: readonly Case[] = [
  {
    part: "SMART's implementation (authorizationUrl)",
    path: '../src/smart/smart-protocol.js',
    error: 'DiscoveryError',
    run: ({ Client }, fetch, signal) =>
      new Client(launchConfig, { fetch }).authorizationUrl({ signal }),
  },
  {
    part: "SMART's implementation (requestAccessToken, token endpoint configured)",
    path: '../src/smart/smart-protocol.js',
    error: 'TokenError',
    run: ({ Client }, fetch, signal) =>
      new Client(
        { ...launchConfig, tokenEndpoint: signingConfig.tokenEndpoint },
        { fetch },
      ).requestAccessToken({
        code: 'c0de',
        codeVerifier: 'v'.repeat(43),
        signal,
      }),
  },
  {
    part: "UDAP's implementation (serverMetadata)",
    path: '../src/udap/udap-protocol.js',
    error: 'DiscoveryError',
    run: ({ Client }, fetch, signal) =>
      new Client({ baseUrl }, { protocol: 'udap', fetch }).serverMetadata({
        trustedAnchors: [],
        crls: [],
        signal,
      }),
  },
  {
    part: 'the launch (beginAuthorization)',
    path: '../src/launch/authorization-flow.js',
    error: 'DiscoveryError',
    run: ({ Client, memoryStore }, fetch, signal) =>
      new Client(launchConfig, { fetch }).beginAuthorization({ store: memoryStore(), signal }),
  },
  {
    part: 'the launch (completeAuthorization)',
    path: '../src/launch/authorization-flow.js',
    error: 'TokenError',
    run: ({ Client, memoryStore }, fetch, signal) =>
      new Client(launchConfig, { fetch }).completeAuthorization(callback, {
        store: memoryStore(),
        signal,
      }),
  },
  {
    part: "session.fetch's rules",
    path: '../src/launch/authorization-flow.js',
    error: 'HttpError',
    run: ({ Client }, fetch, signal) =>
      new Client(launchConfig, { fetch })
        .resumeSession({ access_token: 'at', expires_in: 3600 })
        .fetch('Patient/1', { signal }),
  },
  {
    part: "a backendTokens handle's fetch",
    path: '../src/launch/authorization-flow.js',
    error: 'HttpError',
    run: ({ Client }, fetch, signal) =>
      new Client(signingConfig, { clientType: 'confidential_asymmetric', fetch })
        .backendTokens()
        .fetch('Patient/1', { signal }),
  },
  {
    part: 'ID token validation',
    path: '../src/identity/id-token-validator.js',
    error: 'IdTokenError',
    run: ({ Client }, fetch, signal) =>
      new Client(launchConfig, { fetch }).validateIdToken('a.b.c', { signal }),
  },
  {
    part: 'SMART registration (registrationEndpoint given)',
    path: '../src/smart/registration.js',
    error: 'RegistrationError',
    run: ({ Client }, fetch, signal) =>
      new Client(launchConfig, { fetch }).registerClient(
        { client_name: 'app' },
        { registrationEndpoint: smartConfiguration.registration_endpoint, signal },
      ),
  },
  {
    part: 'SMART signing (requestBackendToken)',
    path: '../src/smart/smart-signing.js',
    error: 'TokenError',
    run: ({ Client }, fetch, signal) =>
      new Client(signingConfig, {
        clientType: 'confidential_asymmetric',
        fetch,
      }).requestBackendToken({
        signal,
      }),
  },
  {
    part: "smart's client assertion (requestBackendToken)",
    path: '../../smart/src/client-assertion.js',
    error: 'TokenError',
    run: ({ Client }, fetch, signal) =>
      new Client(signingConfig, {
        clientType: 'confidential_asymmetric',
        fetch,
      }).requestBackendToken({
        signal,
      }),
  },
  {
    part: "this runtime's default crypto backend (requestBackendToken)",
    path: '../src/default-crypto/node.js',
    error: 'TokenError',
    run: ({ Client }, fetch, signal) =>
      new Client(signingConfig, {
        clientType: 'confidential_asymmetric',
        fetch,
      }).requestBackendToken({
        signal,
      }),
  },
]

/** What the operation rejected with, and how long after the abort. */
async function abortWhileLoading(
  { path, run }: Case,
  loading: Loading,
  when: 'before the call' | 'while loading',
) {
  const module = await clientLoading(path, loading)
  const { fetch, sent } = recordingFetch()
  const controller = new AbortController()
  if (when === 'before the call') controller.abort()
  const pending = run(module, fetch, controller.signal).then(
    () => 'resolved',
    (error: unknown) => error,
  )
  if (when === 'while loading') {
    await vi.waitFor(() => expect(loads).toBe(1), { interval: 1, timeout: 5_000 })
    controller.abort()
  }
  const abortedAt = performance.now()
  const error = await pending
  return { module, error, afterMs: performance.now() - abortedAt, sent }
}

function expectAbortError(module: ClientModule, error: unknown, name: string) {
  expect(module.FhirAuthError.isInstance(error), String(error)).toBe(true)
  expect(error).toMatchObject({ name, cause: { name: 'HttpError', reason: 'aborted' } })
  expect((error as Error).message).toMatch(/aborted by the caller/)
}

describe('an abort while a part of the client is still loading', () => {
  // The same checks whether the signal is aborted during the load or before the call.
  const abortMoments = [
    {
      when: 'while loading',
      title: 'the caller is rejected at once with a $error (cause aborted) and nothing is sent',
    },
    {
      when: 'before the call',
      title: 'a signal aborted before the call rejects at once, without waiting for the load',
    },
  ] as const
  for (const { when, title } of abortMoments) {
    it.each(cases)(`$part: ${title}`, async (testCase) => {
      const { module, error, afterMs, sent } = await abortWhileLoading(testCase, 'never', when)
      expectAbortError(module, error, testCase.error)
      expect(afterMs).toBeLessThan(1_000)
      expect(sent.filter((url) => !url.endsWith('/.well-known/smart-configuration'))).toEqual([])
    })
  }

  it.each(cases)(
    '$part: the load failing after the caller gave up is no unhandled rejection',
    async (testCase) => {
      const { module, error } = await abortWhileLoading(
        testCase,
        { ms: 60, outcome: 'fails' },
        'while loading',
      )
      expectAbortError(module, error, testCase.error)
      // afterEach waits past the failure and fails the test on any unhandled rejection.
    },
  )

  it('the load finishing after the caller gave up sends nothing, and the next call uses it', async () => {
    const module = await clientLoading('../src/smart/smart-protocol.js', {
      ms: 60,
      outcome: 'loads',
    })
    const { fetch, sent } = recordingFetch()
    const client = new module.Client(launchConfig, { fetch })
    const controller = new AbortController()
    const pending = client.authorizationUrl({ signal: controller.signal }).catch((e: unknown) => e)
    await vi.waitFor(() => expect(loads).toBe(1), { interval: 1, timeout: 5_000 })
    controller.abort()
    expectAbortError(module, await pending, 'DiscoveryError')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(sent).toEqual([])
    const { authUrl } = await client.authorizationUrl()
    expect(authUrl.startsWith(smartConfiguration.authorization_endpoint)).toBe(true)
    expect(loads).toBe(1)
  })

  it('without a signal, the wait goes on until the code has loaded', async () => {
    const module = await clientLoading('../src/smart/smart-protocol.js', {
      ms: 60,
      outcome: 'loads',
    })
    const { fetch } = recordingFetch()
    const metadata = await new module.Client(launchConfig, { fetch }).serverMetadata()
    expect(metadata.tokenEndpoint).toBe(smartConfiguration.token_endpoint)
  })
})
