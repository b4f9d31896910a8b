/**
 * Black-box support for the DESIGN §12 / §6 acceptance suite: a scripted SMART server on fake
 * routes, a catalogue of every `Client` operation, fragment scanning for secrets, and an
 * `unhandledRejection` recorder.
 *
 * @see ../../../../../../shared/DESIGN.md (§6, §12)
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { inspect } from 'node:util'
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import {
  type CapturedRequest,
  fakeRoutes,
  type RouteHandler,
} from '@fhir-auth/test-utils/fake-fetch'
import { afterEach, beforeEach } from 'vitest'

export const base = 'https://fhir.example.test/r4'
export const authorizeUrl = 'https://auth.example.test/authorize'
export const tokenUrl = 'https://auth.example.test/token'
export const registerUrl = 'https://auth.example.test/register'
export const redirectUri = 'https://app.example.test/callback'

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

export const smartDocument = {
  issuer: base,
  authorization_endpoint: authorizeUrl,
  token_endpoint: tokenUrl,
  registration_endpoint: registerUrl,
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
  token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
  capabilities: [
    'launch-standalone',
    'client-public',
    'client-confidential-symmetric',
    'client-confidential-asymmetric',
    'authorize-post',
  ],
  code_challenge_methods_supported: ['S256'],
  grant_types_supported: ['authorization_code', 'client_credentials'],
  scopes_supported: ['openid', 'launch/patient', 'patient/*.rs', 'system/*.rs', 'offline_access'],
}

export const discoveryUrl = `${base}/.well-known/smart-configuration`

/** A random secret-looking value (base64url, far longer than 8 characters). */
export function secretValue(_label: string): string {
  // No readable label: a label's own letters would be 8-character "fragments" of every message.
  return randomBytes(30).toString('base64url')
}

let cachedRsaPem: string | undefined
/** An RSA private key as PKCS#8 PEM (generated as PEM: see the Node 20 note in the brief). */
export function rsaPrivateKeyPem(): string {
  cachedRsaPem ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey
  return cachedRsaPem
}

export const tokenBody = (extra: Record<string, unknown> = {}) => ({
  access_token: 'access-token-1234567890',
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'patient/*.rs offline_access',
  refresh_token: 'refresh-token-1234567890',
  ...extra,
})

/** A scripted SMART server; any route can be replaced. */
export function smartServer(overrides: Readonly<Record<string, RouteHandler>> = {}) {
  return fakeRoutes({
    [discoveryUrl]: () => json(smartDocument),
    [tokenUrl]: () => json(tokenBody()),
    [registerUrl]: () => json({ client_id: 'registered-1' }, 201),
    [`${base}/Patient/1`]: () => json({ resourceType: 'Patient', id: '1' }),
    ...overrides,
  })
}

export function smartClient(
  fetch: ClientOptions['fetch'],
  config: Partial<ClientConfigInput> = {},
  options: ClientOptions = {},
): Client {
  return new Client(
    {
      baseUrl: base,
      clientId: 'client-1',
      redirectUri,
      scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
      ...config,
    },
    { logger: silentLogger, fetch, ...options },
  )
}

/** What one `Client` operation needs: a runner taking extra per-call options (a signal). */
export interface Operation {
  readonly name: string
  /** Runs the operation; `signal` goes where that operation takes one. */
  run(client: Client, signal: AbortSignal | undefined): Promise<unknown>
  /** Config needed by this operation beyond the defaults. */
  readonly config?: Partial<ClientConfigInput>
  readonly options?: ClientOptions
}

const asymmetric = (): Partial<ClientConfigInput> => ({
  privateKey: rsaPrivateKeyPem(),
  kid: 'kid-1',
  scopes: ['system/*.rs'],
})

/** Every SMART operation that can take a signal (DESIGN §2, §8, §9). */
export const smartOperations: readonly Operation[] = [
  { name: 'serverMetadata', run: (c, signal) => c.serverMetadata({ signal }) },
  { name: 'authorizationUrl', run: (c, signal) => c.authorizationUrl({ signal }) },
  {
    name: 'beginAuthorization',
    run: (c, signal) => c.beginAuthorization({ store: memoryStore(), signal }),
  },
  {
    name: 'completeAuthorization (caller-kept)',
    run: (c, signal) =>
      c.completeAuthorization(`${redirectUri}?code=code-123456789&state=state-1`, {
        state: 'state-1',
        codeVerifier: 'v'.repeat(43),
        signal,
      }),
  },
  {
    name: 'requestAccessToken',
    run: (c, signal) =>
      c.requestAccessToken({ code: 'code-123456789', codeVerifier: 'v'.repeat(43), signal }),
  },
  {
    name: 'refreshToken',
    run: (c, signal) => c.refreshToken({ refreshToken: 'refresh-123456789', signal }),
  },
  {
    name: 'requestBackendToken',
    config: asymmetric(),
    options: { clientType: 'confidential_asymmetric' },
    run: (c, signal) => c.requestBackendToken({ signal }),
  },
  {
    name: 'backendTokens().fetch',
    config: asymmetric(),
    options: { clientType: 'confidential_asymmetric' },
    run: (c, signal) => c.backendTokens().fetch(`${base}/Patient/1`, { signal: signal ?? null }),
  },
  {
    name: 'registerClient (SMART)',
    run: (c, signal) =>
      c.registerClient({ client_name: 'x', redirect_uris: [redirectUri] }, { signal }),
  },
  {
    name: 'validateIdToken',
    run: (c, signal) => c.validateIdToken('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', { signal }),
  },
  {
    name: 'session.accessToken (expired)',
    run: (c, signal) => expiredSession(c).accessToken({ signal }),
  },
  { name: 'session.refresh', run: (c, signal) => expiredSession(c).refresh({ signal }) },
  {
    name: 'session.fetch (expired)',
    run: (c, signal) => expiredSession(c).fetch(`${base}/Patient/1`, { signal: signal ?? null }),
  },
  {
    name: 'session.fetch (fresh)',
    run: (c, signal) => freshSession(c).fetch(`${base}/Patient/1`, { signal: signal ?? null }),
  },
]

export function expiredSession(client: Client) {
  return client.resumeSession({ ...tokenBody(), expires_in: 0 })
}
export function freshSession(client: Client) {
  return client.resumeSession(tokenBody())
}

/** Records `unhandledRejection` events for the whole test file. */
export function recordUnhandledRejections(): { readonly reasons: unknown[] } {
  const state = { reasons: [] as unknown[] }
  const listener = (reason: unknown) => {
    state.reasons.push(reason)
  }
  beforeEach(() => {
    state.reasons.length = 0
    process.on('unhandledRejection', listener)
  })
  afterEach(() => {
    process.off('unhandledRejection', listener)
  })
  return state
}

/** Lets pending promise jobs and timers run, so an unhandled rejection has time to be reported. */
export async function settle(): Promise<void> {
  for (let index = 0; index < 5; index++) await new Promise((resolve) => setTimeout(resolve, 10))
}

/** Every text a caller can see of an error: message, toJSON, inspect, String, cause chain. */
export function visibleTexts(error: unknown): string[] {
  const texts: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 16 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) texts.push(current.message, String(current.stack ?? ''))
    texts.push(String(current))
    try {
      texts.push(JSON.stringify(current) ?? '')
    } catch {
      texts.push('<toJSON threw>')
    }
    texts.push(inspect(current, { depth: 8, showHidden: false }))
    current = (current as { cause?: unknown }).cause
  }
  return texts
}

/** Fragments (≥ 8 characters) of `secret` found in any of `texts`, reported by where they were. */
export function secretFragments(secret: string, texts: readonly string[], length = 8): string[] {
  const found = new Set<string>()
  for (let start = 0; start + length <= secret.length; start++) {
    const fragment = secret.slice(start, start + length)
    texts.forEach((text, index) => {
      if (text.includes(fragment)) found.add(`text ${index}: "${fragment}"`)
    })
  }
  return [...found]
}

/** Runs `promise` and returns what it rejected with (fails if it resolved). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection, got a value')
}

/** Requests a route received, as `METHOD url`. */
export const sent = (requests: readonly CapturedRequest[]) =>
  requests.map((request) => `${request.method} ${request.url}`)

/** A route that answers after `ms` milliseconds, ignoring the request's signal (a slow server). */
export function slow(ms: number, answer: () => Response): RouteHandler {
  return () => new Promise((resolve) => setTimeout(() => resolve(answer()), ms))
}

/** A route that answers after `ms` unless the request's signal aborts first (a real fetch). */
export function abortable(ms: number, answer: () => Response): RouteHandler {
  return (request) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(answer()), ms)
      request.signal?.addEventListener('abort', () => {
        clearTimeout(timer)
        reject(request.signal?.reason)
      })
    })
}
