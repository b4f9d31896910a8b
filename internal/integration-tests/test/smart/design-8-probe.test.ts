/**
 * An independent acceptance probe of DESIGN §8 ("Finishing a launch, sessions, identity"),
 * written from DESIGN's words only and driving the public entries (`@fhir-auth/client`,
 * `@fhir-auth/core`). Rules about what is or is not sent use the one fake fetch (routes by
 * URL); the launch end to end runs against the real oidc-provider sandbox on loopback.
 */
import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign as signBytes,
} from 'node:crypto'
import { inspect } from 'node:util'
import * as clientEntry from '@fhir-auth/client'
import {
  AuthorizationError,
  Client,
  type ClientConfigInput,
  type ClientOptions,
  ConfigurationError,
  FhirAuthError,
  IdTokenError,
  type KeyValueStore,
  memoryStore,
  Session,
  StoreError,
  TokenError,
  TokenSet,
  webStorageStore,
} from '@fhir-auth/client'
import * as coreEntry from '@fhir-auth/core'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { failureOf, rejectionOf } from '@fhir-auth/test-utils/failure'
import { type CapturedRequest, fakeRoutes } from '@fhir-auth/test-utils/fake-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import { appClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

// ---------------------------------------------------------------------------------------------
// A fake SMART server (through the client's `fetch` option)
// ---------------------------------------------------------------------------------------------

const BASE = 'https://fhir.example.org/r4'
const ISSUER = 'https://auth.example.org'
const AUTHORIZE = `${ISSUER}/authorize`
const TOKEN = `${ISSUER}/token`
const JWKS = `${ISSUER}/jwks`
const OPENID_CONFIGURATION = `${ISSUER}/.well-known/openid-configuration`
const SMART_CONFIGURATION = `${BASE}/.well-known/smart-configuration`
const REDIRECT = 'https://app.example.org/callback'
const CLIENT_ID = 'probe-app'
const SCOPES = ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access']
const PATIENT = `${BASE}/Patient/1`

function pemPair(type: 'rsa' | 'ec', namedCurve?: string) {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', {
          modulusLength: 2048,
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
      : generateKeyPairSync('ec', {
          namedCurve: namedCurve ?? 'P-256',
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
  // PEM first, then re-imported (Node 20 can deadlock exporting a fresh key as a JWK).
  return {
    privateKey: createPrivateKey(pair.privateKey),
    publicKey: createPublicKey(pair.publicKey),
  }
}

const rsa = pemPair('rsa')
const otherRsa = pemPair('rsa')
const ec = pemPair('ec', 'P-256')
const rsaJwk = { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig' }
const ecJwk = { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec1', use: 'sig' }

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

function jwt(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: KeyObject = rsa.privateKey,
): string {
  const input = `${b64(header)}.${b64(claims)}`
  const alg = String(header.alg)
  const hash = `sha${alg.slice(2)}`
  const signature = alg.startsWith('ES')
    ? signBytes(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
    : signBytes(hash, Buffer.from(input), key)
  return `${input}.${signature.toString('base64url')}`
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })

/** A movable clock (the real time plus an offset), injected as the client's `now`. */
function movableClock() {
  let offsetMs = 0
  return {
    now: () => new Date(Date.now() + offsetMs),
    seconds: () => Math.floor((Date.now() + offsetMs) / 1000),
    advance(seconds: number) {
      offsetMs += seconds * 1000
    },
  }
}

type TokenAnswer = Record<string, unknown> | Response

interface FakeServerOptions {
  readonly discovery?: (document: Record<string, unknown>) => Record<string, unknown>
  /** The answer to an authorization_code request; default {@link FakeServer.codeResponse}. */
  readonly codeAnswer?: (server: FakeServer, request: CapturedRequest) => TokenAnswer
  /** The answer to the n-th refresh (1-based); default: rotated tokens. */
  readonly refreshAnswer?: (server: FakeServer, n: number, request: CapturedRequest) => TokenAnswer
  /** The answer of the FHIR server; default 200 `{ resourceType: 'Patient' }`. */
  readonly resource?: (request: CapturedRequest, n: number) => Response
  readonly jwks?: () => unknown
  readonly openidConfiguration?: () => Record<string, unknown>
  /** Extra resource URLs to route (besides {@link PATIENT}). */
  readonly resourceUrls?: readonly string[]
}

interface FakeServer {
  readonly fetch: ReturnType<typeof fakeRoutes>['fetch']
  readonly requests: readonly CapturedRequest[]
  count(url: string): number
  tokenRequests(): CapturedRequest[]
  resourceRequests(): CapturedRequest[]
  /** The nonce of the last authorization URL seen by {@link launch}. */
  nonce: string | undefined
  readonly clock: ReturnType<typeof movableClock>
  idClaims(overrides?: Record<string, unknown>): Record<string, unknown>
  idToken(overrides?: Record<string, unknown>, header?: Record<string, unknown>): string
  codeResponse(extra?: Record<string, unknown>): Record<string, unknown>
}

function fakeServer(options: FakeServerOptions = {}): FakeServer {
  const clock = movableClock()
  let refreshes = 0
  let resources = 0
  const document: Record<string, unknown> = {
    issuer: ISSUER,
    jwks_uri: JWKS,
    authorization_endpoint: AUTHORIZE,
    token_endpoint: TOKEN,
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    capabilities: [
      'launch-standalone',
      'client-public',
      'sso-openid-connect',
      'permission-offline',
    ],
    id_token_signing_alg_values_supported: ['RS256'],
  }
  const answer = (value: TokenAnswer) => (value instanceof Response ? value : json(value))
  const server: FakeServer = {
    fetch: undefined as never,
    requests: [],
    count: () => 0,
    tokenRequests: () => [],
    resourceRequests: () => [],
    nonce: undefined,
    clock,
    idClaims: (overrides = {}) => {
      const now = clock.seconds()
      return {
        iss: ISSUER,
        sub: 'user-1',
        aud: CLIENT_ID,
        iat: now,
        exp: now + 300,
        ...(server.nonce === undefined ? {} : { nonce: server.nonce }),
        fhirUser: `${BASE}/Practitioner/p1`,
        ...overrides,
      }
    },
    idToken: (overrides = {}, header = { alg: 'RS256', kid: 'k1', typ: 'JWT' }) =>
      jwt(header, server.idClaims(overrides)),
    codeResponse: (extra = {}) => ({
      access_token: 'at-1',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: SCOPES.join(' '),
      refresh_token: 'rt-1',
      id_token: server.idToken(),
      patient: '1',
      ...extra,
    }),
  }
  const resourceRoute = (request: CapturedRequest) => {
    resources += 1
    return options.resource?.(request, resources) ?? json({ resourceType: 'Patient', id: '1' })
  }
  const routes = fakeRoutes({
    [SMART_CONFIGURATION]: () => json(options.discovery?.({ ...document }) ?? document),
    [OPENID_CONFIGURATION]: () =>
      json(options.openidConfiguration?.() ?? { issuer: ISSUER, jwks_uri: JWKS }),
    [JWKS]: () => json(options.jwks?.() ?? { keys: [rsaJwk] }),
    [TOKEN]: (request) => {
      const form = new URLSearchParams(request.bodyText)
      if (form.get('grant_type') === 'refresh_token') {
        refreshes += 1
        const n = refreshes
        return answer(
          options.refreshAnswer?.(server, n, request) ?? {
            access_token: `at-r${n}`,
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: `rt-r${n}`,
          },
        )
      }
      return answer(options.codeAnswer?.(server, request) ?? server.codeResponse())
    },
    [PATIENT]: resourceRoute,
    ...Object.fromEntries((options.resourceUrls ?? []).map((url) => [url, resourceRoute])),
  })
  return Object.assign(server, {
    fetch: routes.fetch,
    requests: routes.requests,
    count: routes.count,
    tokenRequests: () => routes.requests.filter((request) => request.url === TOKEN),
    resourceRequests: () =>
      routes.requests.filter(
        (request) => request.url.startsWith(BASE) && request.url !== SMART_CONFIGURATION,
      ),
  })
}

function probeClient(
  server: FakeServer,
  config: ClientConfigInput = {},
  options: ClientOptions = {},
): Client {
  return new Client(
    { baseUrl: BASE, clientId: CLIENT_ID, redirectUri: REDIRECT, scopes: SCOPES, ...config },
    { clientType: 'public', fetch: server.fetch, now: server.clock.now, ...options },
  )
}

/** Begins a launch kept in `store` and returns a builder of callback URLs for it. */
async function begin(client: Client, server: FakeServer, store: KeyValueStore) {
  const begun = await client.beginAuthorization({ store })
  const url = new URL(begun.authUrl)
  server.nonce = url.searchParams.get('nonce') ?? undefined
  const callback = (params: Record<string, string> = {}) =>
    `${REDIRECT}?${new URLSearchParams({ code: 'code-1', state: begun.state, iss: ISSUER, ...params })}`
  return { begun, url, callback }
}

/** A launch finished into a session on a fresh fake server. */
async function launchedSession(
  options: FakeServerOptions = {},
  clientOptions: ClientOptions = {},
  config: ClientConfigInput = {},
) {
  const server = fakeServer(options)
  const client = probeClient(server, config, clientOptions)
  const store = memoryStore()
  const { callback } = await begin(client, server, store)
  const session = await client.completeAuthorization(callback(), { store })
  return { server, client, session, store }
}

/** A store that records every call made on a memoryStore. */
function spyStore(inner: KeyValueStore = memoryStore()) {
  const calls: { method: string; args: unknown[] }[] = []
  const record =
    (method: keyof KeyValueStore) =>
    (...args: unknown[]) => {
      calls.push({ method, args })
      return (inner[method] as (...a: unknown[]) => Promise<unknown>)(...args)
    }
  const store: Required<KeyValueStore> = {
    get: record('get') as KeyValueStore['get'],
    set: record('set') as KeyValueStore['set'],
    delete: record('delete') as KeyValueStore['delete'],
    setIfAbsent: record('setIfAbsent') as KeyValueStore['setIfAbsent'],
    take: record('take') as Required<KeyValueStore>['take'],
  }
  return { store, calls }
}

function authorizationErrorOf(error: unknown): AuthorizationError {
  expect(error).toBeInstanceOf(AuthorizationError)
  return error as AuthorizationError
}

// ---------------------------------------------------------------------------------------------
// beginAuthorization: the kept record, nonce
// ---------------------------------------------------------------------------------------------

describe('§8 beginAuthorization', () => {
  it('saves { state, codeVerifier, nonce, redirectUri, scopes, issuer, createdAt } under a fhir-auth: key derived from state, for 600 s', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const { store, calls } = spyStore()
    const { begun, url } = await begin(client, server, store)
    const writes = calls.filter((call) => call.method === 'set' || call.method === 'setIfAbsent')
    expect(writes).toHaveLength(1)
    const [key, value, ttl] = (writes[0]?.args ?? []) as [string, string, number]
    expect(key.startsWith('fhir-auth:')).toBe(true)
    expect(key.includes(begun.state)).toBe(false)
    expect(ttl).toBe(600)
    const record = JSON.parse(value) as Record<string, unknown>
    expect(record.state).toBe(begun.state)
    expect(typeof record.codeVerifier).toBe('string')
    expect(record.nonce).toBe(url.searchParams.get('nonce'))
    expect(record.redirectUri).toBe(REDIRECT)
    expect(record.scopes).toEqual(SCOPES)
    expect(typeof record.issuer).toBe('string')
    expect(record.createdAt).toBeDefined()
    // the verifier kept is the one the challenge was made from
    const challenge = createHash('sha256').update(String(record.codeVerifier)).digest('base64url')
    expect(url.searchParams.get('code_challenge')).toBe(challenge)
    // the result has what to redirect to, not the secret verifier (it is in the store)
    expect(begun.authUrl.startsWith(`${AUTHORIZE}?`)).toBe(true)
  })

  it('sends a fresh nonce of at least 128 bits when the scopes include openid', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const first = (await begin(client, server, store)).url.searchParams.get('nonce')
    const second = (await begin(client, server, store)).url.searchParams.get('nonce')
    expect(first).not.toBeNull()
    expect(second).not.toBeNull()
    expect(first).not.toBe(second)
    // 128 bits: at least 22 base64url characters (or 32 hex)
    expect(String(first).length).toBeGreaterThanOrEqual(22)
  })

  it('sends no nonce and keeps none without openid', async () => {
    const server = fakeServer()
    const client = probeClient(server, { scopes: ['launch/patient', 'patient/*.rs'] })
    const { store, calls } = spyStore()
    const { url } = await begin(client, server, store)
    expect(url.searchParams.has('nonce')).toBe(false)
    const write = calls.find((call) => call.method === 'set' || call.method === 'setIfAbsent')
    const record = JSON.parse(String(write?.args[1])) as Record<string, unknown>
    expect(record.nonce).toBeUndefined()
  })

  it('customScopes with openid also get a nonce', async () => {
    const server = fakeServer()
    const client = probeClient(server, { scopes: ['patient/*.rs'] })
    const begun = await client.beginAuthorization({
      store: memoryStore(),
      customScopes: ['openid', 'fhirUser'],
    })
    expect(new URL(begun.authUrl).searchParams.get('nonce')).toMatch(/^.{22,}$/)
  })

  it('leaves authorizationUrl unchanged: no nonce even with openid', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const request = await client.authorizationUrl()
    expect(new URL(request.authUrl).searchParams.has('nonce')).toBe(false)
  })

  it('refuses a store of the wrong type with ConfigurationError on store, sending nothing', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    for (const store of ['memory', 42, {}, { get: () => 1 }]) {
      const error = await failureOf(
        client.beginAuthorization({ store: store as never }),
        ConfigurationError,
      )
      expect(error.invalidAttribute).toBe('store')
    }
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('turns a store whose set/setIfAbsent throws into a typed error naming no secret', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const failing: KeyValueStore = {
      get: async () => undefined,
      set: async () => {
        throw new Error('disk full')
      },
      delete: async () => undefined,
      setIfAbsent: async () => {
        throw new Error('disk full')
      },
    }
    const error = await rejectionOf(client.beginAuthorization({ store: failing }))
    expect(error).toBeInstanceOf(FhirAuthError)
  })

  it('does not report success when a store answers setIfAbsent with a non-boolean or set rejects with a non-Error', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const odd: KeyValueStore = {
      get: async () => undefined,
      set: () => Promise.reject('nope'),
      delete: async () => undefined,
      setIfAbsent: () => Promise.reject('nope'),
    }
    const error = await rejectionOf(client.beginAuthorization({ store: odd }))
    expect(error).toBeInstanceOf(FhirAuthError)
  })
})

// ---------------------------------------------------------------------------------------------
// completeAuthorization: the checks, their order, nothing sent when one fails
// ---------------------------------------------------------------------------------------------

describe('§8 completeAuthorization checks', () => {
  it('an error parameter is an AuthorizationError with error, errorDescription, errorUri, state (before the state check)', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const url = `${REDIRECT}?${new URLSearchParams({
      error: 'access_denied',
      error_description: 'The user said no',
      error_uri: 'https://auth.example.org/errors/denied',
      state: 'unknown-state-value',
    })}`
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(url, { store })),
    )
    expect(error.error).toBe('access_denied')
    expect(error.errorDescription).toBe('The user said no')
    expect(error.errorUri).toBe('https://auth.example.org/errors/denied')
    expect(error.state).toBe('unknown-state-value')
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(typeof error.code).toBe('string')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('an error parameter wins over a wrong iss and a missing code', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const url = new URL(callback({ error: 'server_error', iss: 'https://evil.example' }))
    url.searchParams.delete('code')
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(url.href, { store })),
    )
    expect(error.error).toBe('server_error')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it.each([
    ['no state', (url: URL) => url.searchParams.delete('state')],
    ['an unknown state', (url: URL) => url.searchParams.set('state', 'never-issued')],
    ['an empty state', (url: URL) => url.searchParams.set('state', '')],
  ])('%s is state_mismatch and no token request', async (_name, change) => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const url = new URL(callback())
    change(url)
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(url.href, { store })),
    )
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('a record older than 600 s is state_mismatch; one younger is accepted', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore({ now: server.clock.now })
    const old = await begin(client, server, store)
    server.clock.advance(601)
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(old.callback(), { store })),
    )
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)

    const young = await begin(client, server, store)
    server.clock.advance(590)
    const session = await client.completeAuthorization(young.callback(), { store })
    expect(session.tokens.accessToken).toBe('at-1')
  })

  it('the library judges the 600 s itself even when the store keeps the record longer', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    // the store's own clock never moves: it would keep the record forever
    const store = memoryStore()
    const old = await begin(client, server, store)
    server.clock.advance(601)
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(old.callback(), { store })),
    )
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('an iss other than the server issuer is iss_mismatch and no token request', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const error = authorizationErrorOf(
      await rejectionOf(
        client.completeAuthorization(callback({ iss: 'https://evil.example' }), { store }),
      ),
    )
    expect(error.error).toBe('iss_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('an iss that differs only by a trailing slash or case is still iss_mismatch (RFC 9207 simple string comparison)', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    for (const iss of [`${ISSUER}/`, ISSUER.toUpperCase()]) {
      const store = memoryStore()
      const { callback } = await begin(client, server, store)
      const error = authorizationErrorOf(
        await rejectionOf(client.completeAuthorization(callback({ iss }), { store })),
      )
      expect(error.error).toBe('iss_mismatch')
    }
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('no iss at all is accepted', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const url = new URL(callback())
    url.searchParams.delete('iss')
    const session = await client.completeAuthorization(url.href, { store })
    expect(session.tokens.accessToken).toBe('at-1')
  })

  it('no code is missing_code and no token request', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const url = new URL(callback())
    url.searchParams.delete('code')
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(url.href, { store })),
    )
    expect(error.error).toBe('missing_code')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('order: state before iss, iss before code', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const bad = new URL(callback({ iss: 'https://evil.example', state: 'unknown' }))
    bad.searchParams.delete('code')
    expect(
      authorizationErrorOf(await rejectionOf(client.completeAuthorization(bad.href, { store })))
        .error,
    ).toBe('state_mismatch')
    const issAndCode = new URL(callback({ iss: 'https://evil.example' }))
    issAndCode.searchParams.delete('code')
    expect(
      authorizationErrorOf(
        await rejectionOf(client.completeAuthorization(issAndCode.href, { store })),
      ).error,
    ).toBe('iss_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('a replayed callback fails on state after a success (one token request)', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    await client.completeAuthorization(callback(), { store })
    const error = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(callback(), { store })),
    )
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('the record is deleted before the exchange: a failed exchange cannot be replayed', async () => {
    const server = fakeServer({
      codeAnswer: () => json({ error: 'invalid_grant', error_description: 'bad code' }, 400),
    })
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const first = await failureOf(client.completeAuthorization(callback(), { store }), TokenError)
    expect(first.error).toBe('invalid_grant')
    const second = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(callback(), { store })),
    )
    expect(second.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('the record is gone from the store by the time the token request is sent', async () => {
    let seenDuringExchange: unknown = 'not-called'
    const { store, calls } = spyStore()
    let recordKey = ''
    const server = fakeServer({
      codeAnswer: (srv) => {
        // synchronous peek at what the spy saw: a delete or take of the key must precede this
        seenDuringExchange = calls.some(
          (call) =>
            (call.method === 'delete' || call.method === 'take') && call.args[0] === recordKey,
        )
        return srv.codeResponse()
      },
    })
    const client = probeClient(server)
    const { callback } = await begin(client, server, store)
    recordKey = String(
      calls.find((call) => call.method === 'set' || call.method === 'setIfAbsent')?.args[0],
    )
    await client.completeAuthorization(callback(), { store })
    expect(seenDuringExchange).toBe(true)
    expect(await store.get(recordKey)).toBeFalsy()
  })

  it('two concurrent completeAuthorization calls with one callback: exactly one wins, one token request', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const results = await Promise.allSettled([
      client.completeAuthorization(callback(), { store }),
      client.completeAuthorization(callback(), { store }),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const failed = results.find((result) => result.status === 'rejected')
    expect(authorizationErrorOf(failed?.reason).error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('exactly one wins even with a store without take (get then delete, slow)', async () => {
    const inner = memoryStore()
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5))
    const slow: KeyValueStore = {
      get: async (key) => {
        const value = await inner.get(key)
        await pause()
        return value
      },
      set: (key, value, ttl) => inner.set(key, value, ttl),
      delete: async (key) => {
        await pause()
        await inner.delete(key)
      },
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    }
    const server = fakeServer()
    const client = probeClient(server)
    const { callback } = await begin(client, server, slow)
    const results = await Promise.allSettled([
      client.completeAuthorization(callback(), { store: slow }),
      client.completeAuthorization(callback(), { store: slow }),
      client.completeAuthorization(callback(), { store: slow }),
    ])
    expect({
      fulfilled: results.filter((result) => result.status === 'fulfilled').length,
      tokenRequests: server.tokenRequests().length,
    }).toEqual({ fulfilled: 1, tokenRequests: 1 })
  })

  it('refuses a callback with a duplicated state or code, sending no token request', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    for (const name of ['state', 'code']) {
      const store = memoryStore()
      const { callback } = await begin(client, server, store)
      const url = new URL(callback())
      url.searchParams.append(name, name === 'state' ? 'other-state' : 'other-code')
      const error = await rejectionOf(client.completeAuthorization(url.href, { store }))
      expect(error).toBeInstanceOf(AuthorizationError)
    }
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it.each([
    ['right then foreign', [ISSUER, 'https://evil.example']],
    ['foreign then right', ['https://evil.example', ISSUER]],
    ['foreign twice', ['https://evil.example', 'https://evil.example']],
  ])(
    'an iss given twice (%s) is not accepted: a present iss that is not the issuer',
    async (_n, values) => {
      const server = fakeServer()
      const client = probeClient(server)
      const store = memoryStore()
      const { callback } = await begin(client, server, store)
      const url = new URL(callback())
      url.searchParams.delete('iss')
      for (const value of values) url.searchParams.append('iss', value)
      const error = await rejectionOf(client.completeAuthorization(url.href, { store }))
      expect(error).toBeInstanceOf(AuthorizationError)
      expect(server.tokenRequests()).toHaveLength(0)
    },
  )

  it.each([
    ['state_mismatch', { state: 'unknown' }, false],
    ['iss_mismatch', { iss: 'https://evil.example' }, false],
  ])('an AuthorizationError (%s) shows no part of the code', async (_name, params, _x) => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const code = 'SECRETCODE-0123456789abcdef'
    const error = await rejectionOf(
      client.completeAuthorization(callback({ code, ...params }), { store }),
    )
    expect(error).toBeInstanceOf(AuthorizationError)
    const rendered = `${String(error)} ${inspect(error, { depth: 10 })} ${JSON.stringify(error)}`
    expect(rendered).not.toContain('SECRETCODE')
  })

  it('a whole launch, refresh and fetch log no code, verifier or token', async () => {
    const logger = createCapturingLogger()
    const server = fakeServer({ codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }) })
    const client = probeClient(server, {}, { logger })
    const { store, calls } = spyStore()
    const { callback } = await begin(client, server, store)
    const record = JSON.parse(
      String(calls.find((call) => call.method === 'set' || call.method === 'setIfAbsent')?.args[1]),
    ) as { codeVerifier: string }
    const session = await client.completeAuthorization(callback({ code: 'SECRETCODE-abcdef' }), {
      store,
    })
    await session.fetch('Patient/1')
    await session.refresh()
    const lines = logger.renderedLines().join('\n')
    expect(logger.entries.length).toBeGreaterThan(0)
    for (const secret of ['SECRETCODE', record.codeVerifier, 'at-1', 'rt-1', 'at-r1', 'rt-r1']) {
      expect(lines).not.toContain(secret)
    }
  })

  it('a URL object and a relative callback path are read, or refused with a typed error', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const asUrl = await begin(client, server, store)
    const session = await client.completeAuthorization(new URL(asUrl.callback()) as never, {
      store,
    })
    expect(session.tokens.accessToken).toBe('at-1')
    const relative = await begin(client, server, store)
    const path = new URL(relative.callback())
    const outcome = await client
      .completeAuthorization(`${path.pathname}${path.search}`, { store })
      .then(
        (value) => value,
        (error: unknown) => error,
      )
    expect(outcome instanceof Session || outcome instanceof FhirAuthError).toBe(true)
  })

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { code: 'x' }],
    ['garbage', 'http://[::1'],
  ])('a callbackUrl that is %s is a ConfigurationError, nothing sent', async (_name, value) => {
    const server = fakeServer()
    const client = probeClient(server)
    const error = await rejectionOf(
      client.completeAuthorization(value as never, { store: memoryStore() }),
    )
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(error).not.toBeInstanceOf(TypeError)
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('a store whose take/get throws gives a typed error with no secret, and no token request', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const inner = memoryStore()
    const { callback, begun } = await begin(client, server, inner)
    const broken: KeyValueStore = {
      get: async () => {
        throw new Error(`boom ${begun.state}`)
      },
      set: inner.set,
      delete: inner.delete,
      setIfAbsent: inner.setIfAbsent,
      take: async () => {
        throw new Error(`boom ${begun.state}`)
      },
    }
    const error = await rejectionOf(client.completeAuthorization(callback(), { store: broken }))
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(`${String(error)} ${inspect(error, { depth: 8 })}`).not.toContain('code-1')
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it.each([
    ['a number', 42],
    ['an object', { state: 'x' }],
    ['a non-JSON string', 'not json'],
    ['JSON of another shape', '{"hello":"world"}'],
    ['a record for another state', 'OTHER'],
  ])(
    'a store that returns %s for the record gives a typed error, no token request',
    async (_n, v) => {
      const server = fakeServer()
      const client = probeClient(server)
      const inner = memoryStore()
      const other = await begin(client, server, inner)
      const { callback } = await begin(client, server, inner)
      const value =
        v === 'OTHER'
          ? JSON.stringify({ state: other.begun.state, codeVerifier: 'v'.repeat(43) })
          : v
      const odd: KeyValueStore = {
        get: async () => value as never,
        set: inner.set,
        delete: async () => undefined,
        setIfAbsent: inner.setIfAbsent,
        take: async () => value as never,
      }
      const error = await rejectionOf(client.completeAuthorization(callback(), { store: odd }))
      expect(error).toBeInstanceOf(FhirAuthError)
      expect(server.tokenRequests()).toHaveLength(0)
    },
  )

  it('caller-kept launch: { state, codeVerifier, nonce } works; a callback with another state is state_mismatch', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const begun = await client.beginAuthorization()
    const authUrl = new URL(begun.authUrl)
    server.nonce = authUrl.searchParams.get('nonce') ?? undefined
    const kept = {
      state: begun.state,
      codeVerifier: String(begun.codeVerifier),
      nonce: server.nonce,
    }
    const wrong = `${REDIRECT}?${new URLSearchParams({ code: 'c', state: 'forged', iss: ISSUER })}`
    const error = authorizationErrorOf(await rejectionOf(client.completeAuthorization(wrong, kept)))
    expect(error.error).toBe('state_mismatch')
    expect(server.tokenRequests()).toHaveLength(0)
    const right = `${REDIRECT}?${new URLSearchParams({ code: 'c', state: begun.state, iss: ISSUER })}`
    const session = await client.completeAuthorization(right, kept)
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('caller-kept launch without the nonce that was sent fails the ID token nonce rule', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const begun = await client.beginAuthorization()
    server.nonce = new URL(begun.authUrl).searchParams.get('nonce') ?? undefined
    const right = `${REDIRECT}?${new URLSearchParams({ code: 'c', state: begun.state, iss: ISSUER })}`
    const error = await failureOf(
      client.completeAuthorization(right, {
        state: begun.state,
        codeVerifier: String(begun.codeVerifier),
        nonce: 'another-nonce-another-nonce-another',
      }),
      IdTokenError,
    )
    expect(error.reason).toBe('nonce')
  })

  it('completeAuthorization options of the wrong type are ConfigurationErrors, nothing sent', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    await failureOf(
      client.completeAuthorization(callback(), { store: 'x' } as never),
      ConfigurationError,
    )
    await failureOf(
      client.completeAuthorization(callback(), { store, onTokens: 'x' } as never),
      ConfigurationError,
    )
    await failureOf(client.completeAuthorization(callback(), 'x' as never), ConfigurationError)
    await failureOf(
      client.completeAuthorization(callback(), { state: 42, codeVerifier: 'v' } as never),
      ConfigurationError,
    )
    await failureOf(
      client.beginAuthorization({ store, method: 'PUT' } as never),
      ConfigurationError,
    )
    expect(server.tokenRequests()).toHaveLength(0)
  })
})

// ---------------------------------------------------------------------------------------------
// ID tokens
// ---------------------------------------------------------------------------------------------

async function idTokenFailure(
  idToken: (server: FakeServer) => string,
  options: FakeServerOptions = {},
): Promise<{ error: IdTokenError; server: FakeServer }> {
  const server = fakeServer({
    ...options,
    codeAnswer: (srv) => srv.codeResponse({ id_token: idToken(srv) }),
  })
  const client = probeClient(server)
  const store = memoryStore()
  const { callback } = await begin(client, server, store)
  const error = await failureOf(client.completeAuthorization(callback(), { store }), IdTokenError)
  return { error, server }
}

async function idTokenAccepted(
  idToken: (server: FakeServer) => string,
  options: FakeServerOptions = {},
): Promise<Session> {
  const server = fakeServer({
    ...options,
    codeAnswer: (srv) => srv.codeResponse({ id_token: idToken(srv) }),
  })
  const client = probeClient(server)
  const store = memoryStore()
  const { callback } = await begin(client, server, store)
  return client.completeAuthorization(callback(), { store })
}

describe('§8 ID tokens', () => {
  it('a valid ID token gives idTokenClaims; fhirUser comes from them when the response has none', async () => {
    const { session } = await launchedSession()
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(session.tokens.fhirUser).toBe(`${BASE}/Practitioner/p1`)
  })

  it('the token response fhirUser wins over the claim', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ fhirUser: 'Patient/from-response' }),
    })
    expect(session.tokens.fhirUser).toBe('Patient/from-response')
  })

  it.each([
    ['malformed', () => 'not.a.jwt'],
    ['malformed', () => 'abc'],
    ['alg', (s: FakeServer) => `${b64({ alg: 'none' })}.${b64(s.idClaims())}.`],
    [
      'alg',
      (s: FakeServer) => {
        const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64(s.idClaims())}`
        return `${input}.${createHmac('sha256', 'secret').update(input).digest('base64url')}`
      },
    ],
    ['iss', (s: FakeServer) => s.idToken({ iss: 'https://evil.example' })],
    ['iss', (s: FakeServer) => s.idToken({ iss: BASE })],
    ['aud', (s: FakeServer) => s.idToken({ aud: 'another-client' })],
    ['aud', (s: FakeServer) => s.idToken({ aud: ['a', 'b'] })],
    ['azp', (s: FakeServer) => s.idToken({ aud: [CLIENT_ID, 'another-client'] })],
    [
      'azp',
      (s: FakeServer) => s.idToken({ aud: [CLIENT_ID, 'another-client'], azp: 'another-client' }),
    ],
    ['exp', (s: FakeServer) => s.idToken({ exp: s.clock.seconds() - 90 })],
    ['iat', (s: FakeServer) => s.idToken({ iat: s.clock.seconds() + 90 })],
    ['nonce', (s: FakeServer) => s.idToken({ nonce: 'not-the-nonce-that-was-sent' })],
    ['nonce', (s: FakeServer) => s.idToken({ nonce: undefined })],
  ])('an ID token failing the %s rule is IdTokenError with that reason', async (reason, make) => {
    const { error } = await idTokenFailure(make as (s: FakeServer) => string)
    expect(error.reason).toBe(reason)
    expect(error).toBeInstanceOf(FhirAuthError)
  })

  it.each([
    ['exp', 'exp'],
    ['iat', 'iat'],
  ])('an ID token without %s is refused (reason %s)', async (claim, reason) => {
    const { error } = await idTokenFailure((s) => s.idToken({ [claim]: undefined }))
    expect(error.reason).toBe(reason)
  })

  it('none and HS256 stay refused even when the server advertises them', async () => {
    const none = await idTokenFailure((s) => `${b64({ alg: 'none' })}.${b64(s.idClaims())}.`, {
      discovery: (doc) => ({ ...doc, id_token_signing_alg_values_supported: ['none', 'RS256'] }),
    })
    expect(none.error.reason).toBe('alg')
    const hmac = await idTokenFailure(
      (s) => {
        const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64(s.idClaims())}`
        return `${input}.${createHmac('sha256', 'k').update(input).digest('base64url')}`
      },
      { discovery: (doc) => ({ ...doc, id_token_signing_alg_values_supported: ['HS256'] }) },
    )
    expect(hmac.error.reason).toBe('alg')
  })

  it('a jwks_uri that breaks the HTTP policy (plain http, not loopback) is refused without a request', async () => {
    const { error, server } = await idTokenFailure((s) => s.idToken(), {
      discovery: (doc) => ({ ...doc, jwks_uri: 'http://auth.example.org/jwks' }),
    })
    expect(error.reason).toBe('jwks')
    expect(server.requests.some((request) => request.url.startsWith('http://'))).toBe(false)
  })

  it('a flipped signature bit is reason signature', async () => {
    const { error } = await idTokenFailure((s) => {
      const [h, c, sig] = s.idToken().split('.')
      const bytes = Buffer.from(String(sig), 'base64url')
      bytes[10] = (bytes[10] ?? 0) ^ 1
      return `${h}.${c}.${bytes.toString('base64url')}`
    })
    expect(error.reason).toBe('signature')
  })

  it('a token signed by another key under the known kid is reason signature', async () => {
    const { error } = await idTokenFailure((s) =>
      jwt({ alg: 'RS256', kid: 'k1' }, s.idClaims(), otherRsa.privateKey),
    )
    expect(error.reason).toBe('signature')
  })

  it('60 s leeway: exp 30 s ago and iat 30 s ahead are accepted', async () => {
    const session = await idTokenAccepted((s) =>
      s.idToken({ exp: s.clock.seconds() - 30, iat: s.clock.seconds() + 30 }),
    )
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('several audiences with azp = clientId are accepted; an aud array of one without azp too', async () => {
    const several = await idTokenAccepted((s) =>
      s.idToken({ aud: [CLIENT_ID, 'another'], azp: CLIENT_ID }),
    )
    expect(several.tokens.idTokenClaims?.sub).toBe('user-1')
    const single = await idTokenAccepted((s) => s.idToken({ aud: [CLIENT_ID] }))
    expect(single.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('RS256 is the default when id_token_signing_alg_values_supported is not advertised: RS384 is refused (alg)', async () => {
    const { error } = await idTokenFailure((s) => jwt({ alg: 'RS384', kid: 'k1' }, s.idClaims()), {
      discovery: (doc) => {
        delete doc.id_token_signing_alg_values_supported
        return doc
      },
    })
    expect(error.reason).toBe('alg')
  })

  it('an alg advertised in id_token_signing_alg_values_supported is accepted (RS384)', async () => {
    const session = await idTokenAccepted((s) => jwt({ alg: 'RS384', kid: 'k1' }, s.idClaims()), {
      discovery: (doc) => ({ ...doc, id_token_signing_alg_values_supported: ['RS384'] }),
    })
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('an alg not advertised is refused even when the key could verify it (RS256 when only ES256 is advertised)', async () => {
    const { error } = await idTokenFailure((s) => s.idToken(), {
      discovery: (doc) => ({ ...doc, id_token_signing_alg_values_supported: ['ES256'] }),
    })
    expect(error.reason).toBe('alg')
  })

  it('ES256 advertised and used is accepted', async () => {
    const session = await idTokenAccepted(
      (s) => jwt({ alg: 'ES256', kid: 'ec1' }, s.idClaims(), ec.privateKey),
      {
        discovery: (doc) => ({ ...doc, id_token_signing_alg_values_supported: ['ES256'] }),
        jwks: () => ({ keys: [rsaJwk, ecJwk] }),
      },
    )
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('without jwks_uri in the SMART configuration, the keys come from {issuer}/.well-known/openid-configuration', async () => {
    const server = fakeServer({
      discovery: (doc) => {
        delete doc.jwks_uri
        return doc
      },
      openidConfiguration: () => ({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` }),
    })
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const session = await client.completeAuthorization(callback(), { store })
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(server.count(OPENID_CONFIGURATION)).toBe(1)
    expect(server.count(JWKS)).toBe(1)
  })

  it('with jwks_uri in the SMART configuration, openid-configuration is not fetched', async () => {
    const { server } = await launchedSession()
    expect(server.count(OPENID_CONFIGURATION)).toBe(0)
    expect(server.count(JWKS)).toBe(1)
  })

  it('the key set is cached across validations and refetched once for an unknown kid', async () => {
    let keys: unknown[] = [rsaJwk]
    let rotatedIn = false
    const server = fakeServer({
      jwks: () => ({ keys }),
      codeAnswer: (srv) =>
        srv.codeResponse({
          id_token: rotatedIn
            ? jwt({ alg: 'RS256', kid: 'k2' }, srv.idClaims(), otherRsa.privateKey)
            : srv.idToken(),
        }),
    })
    const client = probeClient(server)
    const store = memoryStore()
    const first = await begin(client, server, store)
    await client.completeAuthorization(first.callback(), { store })
    const second = await begin(client, server, store)
    await client.completeAuthorization(second.callback(), { store })
    expect(server.count(JWKS)).toBe(1)
    // rotation: a new kid is published; the client refetches once and accepts
    rotatedIn = true
    keys = [rsaJwk, { ...otherRsa.publicKey.export({ format: 'jwk' }), kid: 'k2', use: 'sig' }]
    const third = await begin(client, server, store)
    const session = await client.completeAuthorization(third.callback(), { store })
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(server.count(JWKS)).toBe(2)
  })

  it('an unknown kid still unknown after one refetch is an IdTokenError (one refetch only)', async () => {
    const { error, server } = await idTokenFailure((s) =>
      jwt({ alg: 'RS256', kid: 'nowhere' }, s.idClaims(), otherRsa.privateKey),
    )
    expect(['jwks', 'signature']).toContain(error.reason)
    expect(server.count(JWKS)).toBe(2)
  })

  it('a key set that cannot be fetched is reason jwks', async () => {
    const { error } = await idTokenFailure((s) => s.idToken(), {
      jwks: () => 'not a key set',
    })
    expect(error.reason).toBe('jwks')
  })

  it('the ID token iss must equal the discovered issuer (not baseUrl / config issuer)', async () => {
    const session = await idTokenAccepted((s) => s.idToken(), {})
    expect(session.tokens.idTokenClaims?.iss).toBe(ISSUER)
  })

  it('without openid requested an id_token is not validated (garbage passes, no claims)', async () => {
    const server = fakeServer({
      codeAnswer: (srv) => srv.codeResponse({ id_token: 'garbage' }),
    })
    const client = probeClient(server, { scopes: ['launch/patient', 'patient/*.rs'] })
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const session = await client.completeAuthorization(callback(), { store })
    expect(session.tokens.idTokenClaims).toBeUndefined()
    expect(server.count(JWKS)).toBe(0)
  })

  it('with openid requested and no id_token in the response, the session is made without claims', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ id_token: undefined }),
    })
    expect(session.tokens.idTokenClaims).toBeUndefined()
  })

  it('session.refresh validates a new ID token (bad signature → IdTokenError)', async () => {
    const { session } = await launchedSession({
      refreshAnswer: (srv) => ({
        access_token: 'at-r',
        token_type: 'Bearer',
        expires_in: 3600,
        id_token: jwt({ alg: 'RS256', kid: 'k1' }, srv.idClaims(), otherRsa.privateKey),
      }),
    })
    const error = await failureOf(session.refresh(), IdTokenError)
    expect(error.reason).toBe('signature')
  })

  it('validateIdToken returns the verified claims and checks the nonce and maxAgeSeconds', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const now = server.clock.seconds()
    const token = server.idToken({ nonce: 'n-1', auth_time: now - 10 })
    const claims = await client.validateIdToken(token, { nonce: 'n-1', maxAgeSeconds: 60 })
    expect(claims.sub).toBe('user-1')
    const nonce = await failureOf(client.validateIdToken(token, { nonce: 'n-2' }), IdTokenError)
    expect(nonce.reason).toBe('nonce')
    const old = server.idToken({ auth_time: now - 1000 })
    const tooOld = await failureOf(client.validateIdToken(old, { maxAgeSeconds: 60 }), IdTokenError)
    expect(tooOld).toBeInstanceOf(IdTokenError)
  })

  it('IdTokenError messages carry no part of the token', async () => {
    const { error, server } = await idTokenFailure((s) => s.idToken({ aud: 'another-client' }))
    const token = server.idToken({ aud: 'another-client' })
    const signature = String(token.split('.')[2])
    const rendered = `${error.message} ${inspect(error, { depth: 8 })} ${JSON.stringify(error)}`
    expect(rendered).not.toContain(signature.slice(0, 16))
    expect(rendered).not.toContain(String(token.split('.')[1]).slice(0, 24))
  })
})

// ---------------------------------------------------------------------------------------------
// TokenSet
// ---------------------------------------------------------------------------------------------

describe('§8 TokenSet', () => {
  const fullResponse = {
    access_token: 'secret-access-token-value',
    token_type: 'bearer',
    expires_in: 3600,
    scope: 'patient/*.rs launch/patient',
    refresh_token: 'secret-refresh-token-value',
    patient: 'p-1',
    encounter: 'e-1',
    fhirUser: 'Practitioner/x',
    fhirContext: [{ reference: 'Observation/1' }],
    need_patient_banner: true,
    smart_style_url: 'https://ehr.example.org/style.json',
    intent: 'reconcile',
    tenant: 't-1',
    custom_member: 'kept',
  }

  it('reads every member, expiresAt from expires_in and the granted scopes', async () => {
    const server = fakeServer()
    const client = probeClient(server, { scopes: ['launch/patient', 'patient/*.rs'] })
    const before = server.clock.now().getTime()
    const session = client.resumeSession(fullResponse)
    const tokens = session.tokens
    expect(tokens).toBeInstanceOf(TokenSet)
    expect(tokens.accessToken).toBe('secret-access-token-value')
    expect(tokens.tokenType).toBe('bearer')
    expect(tokens.refreshToken).toBe('secret-refresh-token-value')
    expect(tokens.scopes).toEqual(['patient/*.rs', 'launch/patient'])
    expect(tokens.patient).toBe('p-1')
    expect(tokens.encounter).toBe('e-1')
    expect(tokens.fhirUser).toBe('Practitioner/x')
    expect(tokens.fhirContext).toEqual([{ reference: 'Observation/1' }])
    expect(tokens.needPatientBanner).toBe(true)
    expect(tokens.smartStyleUrl).toBe('https://ehr.example.org/style.json')
    expect(tokens.intent).toBe('reconcile')
    expect(tokens.tenant).toBe('t-1')
    expect(tokens.raw).toEqual(fullResponse)
    expect(tokens.expiresAt).toBeInstanceOf(Date)
    const expires = tokens.expiresAt?.getTime() ?? 0
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000)
    expect(expires).toBeLessThanOrEqual(server.clock.now().getTime() + 3600_000)
  })

  it('scopes fall back to the requested scopes when the response has no scope', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ scope: undefined }),
    })
    expect(session.tokens.scopes).toEqual(SCOPES)
  })

  it('scopes fall back to customScopes when those were requested', async () => {
    const server = fakeServer({ codeAnswer: (srv) => srv.codeResponse({ scope: undefined }) })
    const client = probeClient(server)
    const store = memoryStore()
    const begun = await client.beginAuthorization({
      store,
      customScopes: ['openid', 'patient/Observation.rs'],
    })
    const url = new URL(begun.authUrl)
    server.nonce = url.searchParams.get('nonce') ?? undefined
    const session = await client.completeAuthorization(
      `${REDIRECT}?${new URLSearchParams({ code: 'c', state: begun.state, iss: ISSUER })}`,
      { store },
    )
    expect(session.tokens.scopes).toEqual(url.searchParams.get('scope')?.split(' '))
  })

  it('fhirContext is [] when absent; tokenType and optional members are absent when not sent', async () => {
    const client = probeClient(fakeServer())
    const tokens = client.resumeSession({ access_token: 'a' }).tokens
    expect(tokens.fhirContext).toEqual([])
    expect(tokens.expiresAt).toBeUndefined()
    expect(tokens.refreshToken).toBeUndefined()
    expect(tokens.patient).toBeUndefined()
    expect(tokens.isExpired()).toBe(false)
  })

  it('a numeric-string expires_in is read as a number', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: '120' }),
    })
    const { expiresAt } = session.tokens
    expect(expiresAt).toBeInstanceOf(Date)
    const lifetime = ((expiresAt?.getTime() ?? 0) - Date.now()) / 1000
    expect(lifetime).toBeGreaterThan(100)
    expect(lifetime).toBeLessThanOrEqual(120)
  })

  it('members of the wrong JSON type are left out with a warning each', async () => {
    const logger = createCapturingLogger()
    const { session } = await launchedSession(
      {
        codeAnswer: (srv) =>
          srv.codeResponse({
            patient: 42,
            encounter: { id: 'e' },
            need_patient_banner: 'yes',
            smart_style_url: ['x'],
            tenant: 7,
            intent: false,
            fhirContext: 'Observation/1',
            expires_in: 'soon',
          }),
      },
      { logger },
    )
    const tokens = session.tokens
    expect(tokens.patient).toBeUndefined()
    expect(tokens.encounter).toBeUndefined()
    expect(tokens.needPatientBanner).toBeUndefined()
    expect(tokens.smartStyleUrl).toBeUndefined()
    expect(tokens.tenant).toBeUndefined()
    expect(tokens.intent).toBeUndefined()
    expect(tokens.fhirContext).toEqual([])
    expect(tokens.expiresAt).toBeUndefined()
    const warnings = logger.entries
      .filter((entry) => entry.level === 'warn')
      .map((entry) => `${entry.message} ${JSON.stringify(entry.fields ?? {})}`)
      .join('\n')
    for (const member of [
      'patient',
      'encounter',
      'need_patient_banner',
      'smart_style_url',
      'tenant',
      'intent',
      'fhirContext',
      'expires_in',
    ]) {
      expect(warnings).toContain(member)
    }
  })

  it('isExpired({ minValiditySeconds, now })', () => {
    const client = probeClient(fakeServer())
    const tokens = client.resumeSession({ access_token: 'a', expires_in: 100 }).tokens
    const obtained = tokens.expiresAt?.getTime() ?? 0
    const at = (secondsBeforeExpiry: number) => new Date(obtained - secondsBeforeExpiry * 1000)
    expect(tokens.isExpired({ now: at(50) })).toBe(false)
    expect(tokens.isExpired({ now: at(50), minValiditySeconds: 60 })).toBe(true)
    expect(tokens.isExpired({ now: at(70), minValiditySeconds: 60 })).toBe(false)
    expect(tokens.isExpired({ now: at(-1) })).toBe(true)
    expect(tokens.isExpired({ now: at(1) })).toBe(false)
  })

  it('toJSON and util.inspect redact the access, refresh and ID tokens (TokenSet and Session)', async () => {
    const { session, server } = await launchedSession()
    const idToken = String(session.tokens.idToken)
    const rendered = [
      JSON.stringify(session.tokens),
      inspect(session.tokens, { depth: 10, showHidden: true }),
      JSON.stringify(session),
      inspect(session, { depth: 10, showHidden: true }),
      String(session),
      String(session.tokens),
    ].join('\n')
    expect(rendered).not.toContain('at-1')
    expect(rendered).not.toContain('rt-1')
    expect(rendered).not.toContain(idToken.split('.')[2]?.slice(0, 20))
    expect(rendered).not.toContain(idToken.split('.')[1]?.slice(0, 20))
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('serialize() holds the tokens and resumeSession(string) restores the set', async () => {
    const { session, client } = await launchedSession()
    const text = session.tokens.serialize()
    expect(text).toContain('at-1')
    const resumed = client.resumeSession(text)
    expect(resumed).toBeInstanceOf(Session)
    expect(resumed.tokens.accessToken).toBe('at-1')
    expect(resumed.tokens.refreshToken).toBe('rt-1')
    expect(resumed.tokens.patient).toBe('1')
    expect(resumed.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(resumed.tokens.fhirUser).toBe(`${BASE}/Practitioner/p1`)
    expect(resumed.tokens.scopes).toEqual(session.tokens.scopes)
    expect(resumed.tokens.expiresAt?.getTime()).toBe(session.tokens.expiresAt?.getTime())
  })

  it('resumeSession takes a TokenSet and a TokenResponse too', async () => {
    const { session, client } = await launchedSession()
    expect(client.resumeSession(session.tokens).tokens.accessToken).toBe('at-1')
    const fromResponse = client.resumeSession({
      access_token: 'x',
      token_type: 'Bearer',
      scope: 'patient/*.rs',
    })
    expect(fromResponse.tokens.accessToken).toBe('x')
    expect(fromResponse.tokens.scopes).toEqual(['patient/*.rs'])
  })

  it.each([
    ['not JSON', 'not json at all'],
    ['an empty object', '{}'],
    ['JSON null', 'null'],
    ['a number as JSON', '42'],
    [
      'an access_token that is a number',
      '{"v":1,"raw":{"access_token":5},"obtainedAt":1,"requestedScopes":[]}',
    ],
    ['the empty string', ''],
  ])('resumeSession with %s is a ConfigurationError', (_name, text) => {
    const client = probeClient(fakeServer())
    expect(() => client.resumeSession(text)).toThrow(ConfigurationError)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['an array', ['a']],
    ['an object without access_token', { token_type: 'Bearer' }],
    ['an empty access_token', { access_token: '' }],
    ['an access_token of the wrong type', { access_token: 42 }],
  ])('resumeSession with %s is a ConfigurationError', (_name, value) => {
    const client = probeClient(fakeServer())
    expect(() => client.resumeSession(value as never)).toThrow(ConfigurationError)
  })

  it('a tampered serialized session is a typed error whose message, cause and inspect hold no secret', async () => {
    const { session, client } = await launchedSession()
    const text = session.tokens.serialize()
    const tampered = [
      text.slice(0, -3),
      text.replace('"v":1', '"v":99'),
      `${text}garbage`,
      text.replace('"access_token":"at-1"', '"access_token":["at-1"]'),
    ]
    for (const value of tampered) {
      let error: unknown
      try {
        client.resumeSession(value)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigurationError)
      const rendered = `${String(error)} ${inspect(error, { depth: 10 })} ${JSON.stringify(error)}`
      expect(rendered).not.toContain('at-1')
      expect(rendered).not.toContain('rt-1')
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Session: accessToken, refresh, onTokens
// ---------------------------------------------------------------------------------------------

describe('§8 Session refresh', () => {
  it('accessToken() refreshes first when the token expires within 60 s (default), not before', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 90 }),
    })
    expect(await session.accessToken()).toBe('at-1')
    expect(server.tokenRequests()).toHaveLength(1)
    server.clock.advance(31)
    expect(await session.accessToken()).toBe('at-r1')
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('accessToken({ minValiditySeconds }) moves the threshold', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 100 }),
    })
    expect(await session.accessToken({ minValiditySeconds: 0 })).toBe('at-1')
    expect(await session.accessToken({ minValiditySeconds: 99 })).toBe('at-1')
    expect(await session.accessToken({ minValiditySeconds: 120 })).toBe('at-r1')
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it.each([
    ['negative', -1],
    ['a string', '60'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('accessToken({ minValiditySeconds: %s }) is a ConfigurationError', async (_n, value) => {
    const { session } = await launchedSession()
    await failureOf(session.accessToken({ minValiditySeconds: value as never }), ConfigurationError)
  })

  it('concurrent callers share one refresh', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }),
    })
    const tokens = await Promise.all([
      session.accessToken(),
      session.accessToken(),
      session.refresh(),
      session.fetch('Patient/1'),
      session.accessToken(),
    ])
    expect(tokens[0]).toBe('at-r1')
    expect(tokens[1]).toBe('at-r1')
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('a rotated refresh token replaces the old one; without a new one the old is kept', async () => {
    const { session, server } = await launchedSession({
      refreshAnswer: (_srv, n) =>
        n === 1
          ? {
              access_token: 'at-r1',
              token_type: 'Bearer',
              expires_in: 3600,
              refresh_token: 'rt-r1',
            }
          : { access_token: `at-r${n}`, token_type: 'Bearer', expires_in: 3600 },
    })
    await session.refresh()
    await session.refresh()
    await session.refresh()
    const sent = server
      .tokenRequests()
      .slice(1)
      .map((request) => new URLSearchParams(request.bodyText).get('refresh_token'))
    expect(sent).toEqual(['rt-1', 'rt-r1', 'rt-r1'])
    expect(session.tokens.refreshToken).toBe('rt-r1')
    expect(session.tokens.accessToken).toBe('at-r3')
  })

  it('a refresh response without the launch context leaves the session about the same patient', async () => {
    const { session } = await launchedSession({
      refreshAnswer: (_srv, n) => ({
        access_token: `at-r${n}`,
        token_type: 'Bearer',
        expires_in: 3600,
      }),
    })
    const before = session.tokens
    await session.refresh()
    expect(session.tokens.accessToken).toBe('at-r1')
    expect(session.tokens.patient).toBe('1')
    expect(session.tokens.idToken).toBe(before.idToken)
    expect(session.tokens.fhirUser).toBe(before.fhirUser)
    expect(session.tokens.refreshToken).toBe('rt-1')
  })

  it('refresh({ scopes }) sends scope; refresh() sends none', async () => {
    const { session, server } = await launchedSession()
    await session.refresh()
    await session.refresh({ scopes: ['patient/Patient.rs'] })
    const forms = server
      .tokenRequests()
      .slice(1)
      .map((request) => new URLSearchParams(request.bodyText))
    expect(forms[0]?.has('scope')).toBe(false)
    expect(forms[1]?.get('scope')).toBe('patient/Patient.rs')
  })

  it('the refreshed set keeps the requested scopes as the fallback and returns a TokenSet', async () => {
    const { session } = await launchedSession()
    const refreshed = await session.refresh()
    expect(refreshed).toBeInstanceOf(TokenSet)
    expect(refreshed.scopes).toEqual(SCOPES)
    expect(session.tokens).toBe(refreshed)
  })

  it('onTokens is awaited after every refresh before the caller gets the token', async () => {
    const server = fakeServer({ codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }) })
    const client = probeClient(server)
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const seen: string[] = []
    let persisted = false
    const session = await client.completeAuthorization(callback(), {
      store,
      onTokens: async (tokens) => {
        await new Promise((resolve) => setTimeout(resolve, 30))
        seen.push(tokens.accessToken)
        persisted = true
      },
    })
    const token = await session.accessToken()
    expect(token).toBe('at-r1')
    expect(persisted).toBe(true)
    await session.refresh()
    expect(seen).toEqual(['at-r1', 'at-r2'])
  })

  it('resumeSession(tokens, { onTokens }) is awaited too; an onTokens of the wrong type is refused', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const seen: string[] = []
    const session = client.resumeSession(
      { access_token: 'old', refresh_token: 'rt-0', expires_in: 5 },
      {
        onTokens: async (tokens) => {
          await new Promise((resolve) => setTimeout(resolve, 10))
          seen.push(tokens.serialize())
        },
      },
    )
    expect(await session.accessToken()).toBe('at-r1')
    expect(seen).toHaveLength(1)
    expect(() =>
      client.resumeSession({ access_token: 'x' }, { onTokens: 'not a function' } as never),
    ).toThrow(ConfigurationError)
  })

  it('an expired session without a refresh token is a TokenError; fetch sends nothing', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const session = client.resumeSession({ access_token: 'dead', expires_in: 30 })
    server.clock.advance(31)
    await failureOf(session.accessToken(), TokenError)
    await failureOf(session.fetch('Patient/1'), TokenError)
    expect(server.requests).toHaveLength(0)
  })

  it('session.refresh() without a refresh token is a TokenError, nothing sent', async () => {
    const server = fakeServer()
    const client = probeClient(server)
    const session = client.resumeSession({ access_token: 'live', expires_in: 3600 })
    await failureOf(session.refresh(), TokenError)
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('concurrent callers all get the TokenError of a failed shared refresh, and the next call tries again', async () => {
    let fail = true
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }),
      refreshAnswer: () =>
        fail
          ? json({ error: 'temporarily_unavailable' }, 400)
          : { access_token: 'at-ok', token_type: 'Bearer', expires_in: 3600 },
    })
    const results = await Promise.allSettled([session.accessToken(), session.accessToken()])
    expect(results.every((result) => result.status === 'rejected')).toBe(true)
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(TokenError)
    }
    expect(server.tokenRequests()).toHaveLength(2)
    fail = false
    expect(await session.accessToken()).toBe('at-ok')
  })

  it('a failed refresh is a TokenError and leaves the old tokens', async () => {
    const { session } = await launchedSession({
      refreshAnswer: () => json({ error: 'invalid_grant' }, 400),
    })
    const error = await failureOf(session.refresh(), TokenError)
    expect(error.error).toBe('invalid_grant')
    expect(session.tokens.accessToken).toBe('at-1')
  })
})

// ---------------------------------------------------------------------------------------------
// Session: fetch
// ---------------------------------------------------------------------------------------------

describe('§8 session.fetch', () => {
  it('adds Authorization: Bearer and resolves relative input against baseUrl (with its path)', async () => {
    const { session, server } = await launchedSession()
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(200)
    const [request] = server.resourceRequests()
    expect(request?.url).toBe(PATIENT)
    expect(request?.headers.get('authorization')).toBe('Bearer at-1')
  })

  it('takes an absolute string, a URL object and a Request object (its headers kept)', async () => {
    const { session, server } = await launchedSession()
    await session.fetch(PATIENT)
    await session.fetch(new URL(PATIENT))
    await session.fetch(new Request(PATIENT, { headers: { accept: 'application/fhir+json' } }))
    const requests = server.resourceRequests()
    expect(requests.map((request) => request.url)).toEqual([PATIENT, PATIENT, PATIENT])
    for (const request of requests) {
      expect(request.headers.get('authorization')).toBe('Bearer at-1')
    }
    expect(requests[2]?.headers.get('accept')).toBe('application/fhir+json')
  })

  it('keeps the caller init (method, headers, body)', async () => {
    const { session, server } = await launchedSession()
    await session.fetch('Patient/1', {
      method: 'PUT',
      headers: { 'content-type': 'application/fhir+json', 'x-extra': '1' },
      body: '{"resourceType":"Patient"}',
    })
    const [request] = server.resourceRequests()
    expect(request?.method).toBe('PUT')
    expect(request?.headers.get('x-extra')).toBe('1')
    expect(request?.headers.get('content-type')).toBe('application/fhir+json')
    expect(request?.bodyText).toBe('{"resourceType":"Patient"}')
    expect(request?.headers.get('authorization')).toBe('Bearer at-1')
  })

  it.each([
    ['another origin', 'https://evil.example/r4/Patient/1'],
    ['a sibling path with the base as a prefix', 'https://fhir.example.org/r4x/Patient/1'],
    ['another path on the same origin', 'https://fhir.example.org/other/Patient/1'],
    ['the origin root', 'https://fhir.example.org/'],
    ['another port', 'https://fhir.example.org:8443/r4/Patient/1'],
    ['http instead of https', 'http://fhir.example.org/r4/Patient/1'],
    ['userinfo', 'https://user:pass@fhir.example.org/r4/Patient/1'],
    ['userinfo (user only)', 'https://user@fhir.example.org/r4/Patient/1'],
    ['.. out of the base', 'https://fhir.example.org/r4/../admin'],
    ['encoded %2e%2e out of the base', 'https://fhir.example.org/r4/%2e%2e/admin'],
    ['encoded %2E%2E out of the base', 'https://fhir.example.org/r4/%2E%2E/admin'],
    ['encoded slash right after the base', 'https://fhir.example.org/r4%2F..%2Fadmin'],
    ['relative .. out of the base', '../admin'],
    ['relative Patient/../../admin', 'Patient/../../admin'],
    ['an absolute path outside the base', '/admin'],
    ['a protocol-relative URL', '//evil.example/r4/Patient/1'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/plain,hello'],
    ['a backslash trick', 'https://fhir.example.org\\@evil.example/r4/Patient/1'],
    ['a lookalike host', 'https://fhir.example.org.evil.example/r4/Patient/1'],
  ])('refuses %s with a ConfigurationError and sends nothing', async (_name, url) => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    const error = await rejectionOf(session.fetch(url))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(server.requests.length).toBe(before)
    expect(String(error)).not.toContain('at-1')
  })

  it.each([
    ['a URL object off base', () => new URL('https://evil.example/r4/Patient/1')],
    ['a Request off base', () => new Request('https://evil.example/r4/Patient/1')],
  ])('refuses %s too', async (_name, make) => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    const outcome = await rejectionOf(async () => session.fetch(make() as never))
    expect(outcome).toBeInstanceOf(ConfigurationError)
    expect(server.requests.length).toBe(before)
  })

  it.each([
    ['the base itself', BASE],
    ['the base with a slash', `${BASE}/`],
    ['the base with a query', `${BASE}?_count=1`],
    ['a host in upper case', 'https://FHIR.EXAMPLE.ORG/r4/Patient/1'],
    ['the default port written out', 'https://fhir.example.org:443/r4/Patient/1'],
    ['a path with .. that stays inside', 'https://fhir.example.org/r4/Observation/../Patient/1'],
  ])('sends to %s (under the base)', async (_name, url) => {
    const { session, server } = await launchedSession({
      resourceUrls: [BASE, `${BASE}/`],
    })
    const response = await session.fetch(url)
    expect(response.status).toBe(200)
    const request = server.resourceRequests().at(-1)
    expect(request?.headers.get('authorization')).toBe('Bearer at-1')
  })

  it('a baseUrl configured with a trailing slash behaves the same', async () => {
    const { session, server } = await launchedSession({}, {}, { baseUrl: `${BASE}/` })
    await session.fetch('Patient/1')
    expect(server.resourceRequests().at(-1)?.url).toBe(PATIENT)
    await failureOf(session.fetch('https://fhir.example.org/r4x/Patient/1'), ConfigurationError)
  })

  it('on a 401 it refreshes once and retries once (no body)', async () => {
    const { session, server } = await launchedSession({
      resource: (request) =>
        request.headers.get('authorization') === 'Bearer at-1'
          ? new Response('', { status: 401 })
          : json({ resourceType: 'Patient' }),
    })
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(200)
    const auth = server.resourceRequests().map((request) => request.headers.get('authorization'))
    expect(auth).toEqual(['Bearer at-1', 'Bearer at-r1'])
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it.each([
    ['a string body', () => '{"resourceType":"Patient"}'],
    ['a Uint8Array body', () => new TextEncoder().encode('{"resourceType":"Patient"}')],
    ['an ArrayBuffer body', () => new TextEncoder().encode('{"resourceType":"Patient"}').buffer],
  ])('retries a POST with %s after a 401 and a refresh', async (_name, body) => {
    const { session, server } = await launchedSession({
      resource: (request) =>
        request.headers.get('authorization') === 'Bearer at-1'
          ? new Response('', { status: 401 })
          : json({ resourceType: 'Patient' }, 201),
    })
    const response = await session.fetch('Patient/1', { method: 'POST', body: body() as never })
    expect(response.status).toBe(201)
    expect(server.resourceRequests()).toHaveLength(2)
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('does not retry a 401 for a stream body: the 401 comes back as is', async () => {
    const { session, server } = await launchedSession({
      resource: () => new Response('nope', { status: 401 }),
    })
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'))
        controller.close()
      },
    })
    const response = await session.fetch('Patient/1', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(401)
    expect(server.resourceRequests()).toHaveLength(1)
  })

  it('a Request with a body: a retry after a 401 sends the same body again (or the 401 comes back)', async () => {
    const server = fakeServer({
      resource: (request) =>
        request.headers.get('authorization') === 'Bearer at-1'
          ? new Response('', { status: 401 })
          : json({}, 201),
    })
    const bodies: string[] = []
    const recording: typeof server.fetch = async (url, init) => {
      if (url === PATIENT) bodies.push(await new Response(init.body ?? null).text())
      return server.fetch(url, init)
    }
    const client = probeClient(server, {}, { fetch: recording })
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const session = await client.completeAuthorization(callback(), { store })
    const response = await session.fetch(
      new Request(PATIENT, { method: 'POST', body: '{"a":1}' }) as never,
    )
    if (response.status === 201) {
      expect(bodies).toEqual(['{"a":1}', '{"a":1}'])
    } else {
      expect(response.status).toBe(401)
      expect(bodies).toHaveLength(1)
    }
  })

  it('a second 401 is returned as is (one refresh, one retry)', async () => {
    const { session, server } = await launchedSession({
      resource: () => new Response('still no', { status: 401 }),
    })
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(401)
    expect(await response.text()).toBe('still no')
    expect(server.resourceRequests()).toHaveLength(2)
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('a 401 without a refresh token comes back as is', async () => {
    const server = fakeServer({ resource: () => new Response('', { status: 401 }) })
    const client = probeClient(server)
    const session = client.resumeSession({ access_token: 'a', expires_in: 3600 })
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(401)
    expect(server.resourceRequests()).toHaveLength(1)
  })

  it('refreshes before sending when the token expires within 60 s', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 30 }),
    })
    await session.fetch('Patient/1')
    expect(server.resourceRequests()[0]?.headers.get('authorization')).toBe('Bearer at-r1')
  })

  it('a redirect from the FHIR server to another origin never carries the token there', async () => {
    const evil = 'https://evil.example/steal'
    const { session, server } = await launchedSession({
      resource: () => new Response(null, { status: 302, headers: { location: evil } }),
      resourceUrls: [evil],
    })
    const outcome = await session.fetch('Patient/1').then(
      (response) => response,
      (error: unknown) => error,
    )
    const leaked = server.requests.filter(
      (request) =>
        request.url.startsWith('https://evil.example') && request.headers.has('authorization'),
    )
    expect(leaked).toHaveLength(0)
    expect(outcome instanceof Response || outcome instanceof FhirAuthError).toBe(true)
  })

  it('an already aborted signal rejects at once and sends nothing', async () => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    const outcome = await rejectionOf(session.fetch('Patient/1', { signal: AbortSignal.abort() }))
    expect(outcome).toBeDefined()
    expect(server.requests.length).toBe(before)
  })

  it('returns the Response as is: status, headers and a large body (no size cap)', async () => {
    const big = 'x'.repeat(12 * 1024 * 1024)
    const { session } = await launchedSession({
      resource: () =>
        new Response(big, { status: 418, headers: { 'x-custom': 'yes', etag: 'W/"1"' } }),
    })
    const response = await session.fetch('Patient/1')
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(418)
    expect(response.headers.get('x-custom')).toBe('yes')
    expect((await response.text()).length).toBe(big.length)
  })

  it('session.fetch with input of the wrong type is a ConfigurationError, nothing sent', async () => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    for (const input of [42, null, undefined, {}, ['Patient/1']]) {
      const error = await rejectionOf(async () => session.fetch(input as never))
      expect(error).toBeInstanceOf(ConfigurationError)
    }
    expect(server.requests.length).toBe(before)
  })
})

// ---------------------------------------------------------------------------------------------
// Stores and exports
// ---------------------------------------------------------------------------------------------

describe('§8 stores and exports', () => {
  it('memoryStore: async, setIfAbsent once, take once, ttl ends entries', async () => {
    let now = Date.now()
    const store = memoryStore({ now: () => new Date(now) })
    const pending = store.set('fhir-auth:t:a', 'one', 10)
    expect(pending).toBeInstanceOf(Promise)
    await pending
    expect(await store.get('fhir-auth:t:a')).toBe('one')
    expect(await store.setIfAbsent('fhir-auth:t:a', 'two', 10)).toBe(false)
    expect(await store.setIfAbsent('fhir-auth:t:b', 'two', 10)).toBe(true)
    expect(await store.take?.('fhir-auth:t:b')).toBe('two')
    expect(await store.take?.('fhir-auth:t:b')).toBeFalsy()
    now += 11_000
    expect(await store.get('fhir-auth:t:a')).toBeFalsy()
    await store.delete('fhir-auth:t:none')
  })

  it('webStorageStore defaults to sessionStorage (and is a ConfigurationError where there is none)', async () => {
    const globals = globalThis as { sessionStorage?: unknown }
    const previous = globals.sessionStorage
    const items = new Map<string, string>()
    try {
      delete globals.sessionStorage
      expect(() => webStorageStore()).toThrow(ConfigurationError)
      globals.sessionStorage = {
        getItem: (key: string) => items.get(key) ?? null,
        setItem: (key: string, value: string) => void items.set(key, value),
        removeItem: (key: string) => void items.delete(key),
      }
      const store = webStorageStore()
      const server = fakeServer()
      const client = probeClient(server)
      const { callback } = await begin(client, server, store)
      expect([...items.keys()].length).toBe(1)
      expect([...items.keys()].every((key) => key.startsWith('fhir-auth:'))).toBe(true)
      const session = await client.completeAuthorization(callback(), { store })
      expect(session.tokens.accessToken).toBe('at-1')
      expect(items.size).toBe(0)
    } finally {
      if (previous === undefined) delete globals.sessionStorage
      else globals.sessionStorage = previous
    }
  })

  it('a webStorageStore whose storage throws (quota) is a StoreError from beginAuthorization', async () => {
    const store = webStorageStore({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError')
      },
      removeItem: () => undefined,
    })
    const server = fakeServer()
    const client = probeClient(server)
    await failureOf(client.beginAuthorization({ store }), StoreError)
  })

  it('@fhir-auth/client re-exports the stores, TokenSet, Session, AuthorizationError and IdTokenError', () => {
    expect(clientEntry.memoryStore).toBe(coreEntry.memoryStore)
    expect(clientEntry.webStorageStore).toBe(coreEntry.webStorageStore)
    expect(clientEntry.TokenSet).toBe(coreEntry.TokenSet)
    expect(clientEntry.AuthorizationError).toBe(coreEntry.AuthorizationError)
    expect(clientEntry.IdTokenError).toBe(coreEntry.IdTokenError)
    expect(typeof clientEntry.Session).toBe('function')
    expect(new clientEntry.AuthorizationError({ error: 'x' })).toBeInstanceOf(
      coreEntry.FhirAuthError,
    )
  })

  it('the errors have stable codes and IdTokenError a reason', () => {
    const authorization = new AuthorizationError({ error: 'state_mismatch' })
    expect(authorization.error).toBe('state_mismatch')
    expect(typeof authorization.code).toBe('string')
    const idToken = new IdTokenError('nonce', 'nonce differs')
    expect(idToken.reason).toBe('nonce')
    expect(idToken.code).not.toBe(authorization.code)
    expect(StoreError).toBeDefined()
  })
})

// ---------------------------------------------------------------------------------------------
// End to end against the real oidc-provider sandbox
// ---------------------------------------------------------------------------------------------

describe('§8 against the real SMART sandbox', () => {
  let fixture: SmartFixture
  beforeAll(async () => {
    fixture = await startSmartFixture({ standalonePatient: 'patient-8' })
  })
  afterAll(async () => {
    await fixture?.sandbox.close()
  })

  async function realLaunch(client: Client, store: KeyValueStore) {
    const begun = await client.beginAuthorization({ store })
    const result = await fixture.sandbox.authorize({ url: begun.authUrl })
    if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
    return result.redirectUrl.href
  }
  const tokenCount = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token).length

  it('finishes a launch, reads the patient, refuses a replay without a token request', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callbackUrl = await realLaunch(client, store)
    expect(new URL(callbackUrl).searchParams.get('iss')).toBe(fixture.sandbox.issuer)
    const before = tokenCount()
    const session = await client.completeAuthorization(callbackUrl, { store })
    expect(tokenCount()).toBe(before + 1)
    expect(session.tokens.patient).toBe('patient-8')
    expect(session.tokens.idTokenClaims?.iss).toBe(fixture.sandbox.issuer)
    expect(typeof session.tokens.fhirUser).toBe('string')
    const response = await session.fetch('Patient/patient-8')
    expect(response.status).toBe(200)
    const replay = authorizationErrorOf(
      await rejectionOf(client.completeAuthorization(callbackUrl, { store })),
    )
    expect(replay.error).toBe('state_mismatch')
    expect(tokenCount()).toBe(before + 1)
  })

  it('refreshes with rotation, awaits onTokens, and the rotated token works again', async () => {
    const client = appClient(fixture, 'symmetric')
    const store = memoryStore()
    const callbackUrl = await realLaunch(client, store)
    const persisted: string[] = []
    const session = await client.completeAuthorization(callbackUrl, {
      store,
      onTokens: async (tokens) => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        persisted.push(tokens.serialize())
      },
    })
    const first = session.tokens.refreshToken
    await session.refresh()
    expect(persisted).toHaveLength(1)
    const second = session.tokens.refreshToken
    await session.refresh()
    expect(persisted).toHaveLength(2)
    expect(typeof first).toBe('string')
    expect(typeof second).toBe('string')
    const resumed = client.resumeSession(String(persisted.at(-1)))
    const response = await resumed.fetch('Patient/patient-8')
    expect(response.status).toBe(200)
  })

  it('on a 401 from the FHIR server the session refreshes and retries', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callbackUrl = await realLaunch(client, store)
    const session = await client.completeAuthorization(callbackUrl, { store })
    // a session resumed with a dead access token but a live refresh token
    const dead = client.resumeSession({
      ...session.tokens.raw,
      access_token: 'revoked-access-token',
    })
    const response = await dead.fetch('Patient/patient-8')
    expect(response.status).toBe(200)
    expect(dead.tokens.accessToken).not.toBe('revoked-access-token')
  })
})
