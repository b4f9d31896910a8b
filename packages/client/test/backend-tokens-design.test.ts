/**
 * DESIGN §9 rule by rule through `client.backendTokens` (SMART), with an injected clock: the
 * default renewal margin, a response without `expires_in`, one entry per token endpoint, client
 * id and scopes, `fetch`'s single retry after a 401, `invalidate`, and the option checks.
 */
import {
  BackendTokens,
  Client,
  ConfigurationError,
  type FetchLike,
  memoryStore,
} from '@fhir-auth/client'
import { fakeRoutes, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import { baseUrl, discoveryUrl, ecKeyPem, smartConfiguration } from './support.js'

const keyPem = ecKeyPem()
const tokenUrl = smartConfiguration.token_endpoint

interface Server {
  readonly fetch: FetchLike
  readonly tokenRequests: () => number
  readonly scopesAsked: () => string[]
  readonly bearers: () => string[]
}

function server(
  tokenBody: (n: number) => Record<string, unknown> = (n) => ({
    access_token: `at-${n}`,
    token_type: 'Bearer',
    expires_in: 300,
  }),
  fhir: (authorization: string | null, n: number) => Response = () =>
    jsonResponse({ resourceType: 'Patient' }),
): Server {
  let issued = 0
  let fhirCalls = 0
  const scopes: string[] = []
  const bearers: string[] = []
  const routes = fakeRoutes({
    [discoveryUrl]: () => jsonResponse(smartConfiguration),
    [tokenUrl]: (request) => {
      issued++
      scopes.push(new URLSearchParams(request.bodyText).get('scope') ?? '')
      return jsonResponse(tokenBody(issued))
    },
    [`${baseUrl}/Patient/1`]: (request) => {
      const authorization = request.headers.get('authorization')
      bearers.push(authorization ?? '')
      return fhir(authorization, ++fhirCalls)
    },
  })
  return {
    fetch: routes.fetch,
    tokenRequests: () => issued,
    scopesAsked: () => scopes,
    bearers: () => bearers,
  }
}

function client(fetch: FetchLike, now: () => Date, clientId = 'service'): Client {
  return new Client(
    { baseUrl, clientId, privateKey: keyPem, kid: 'k1', scopes: ['system/Patient.rs'] },
    { clientType: 'confidential_asymmetric', fetch, now },
  )
}

function clock() {
  let at = Date.parse('2030-01-01T00:00:00Z')
  return {
    now: () => new Date(at),
    advance: (seconds: number) => {
      at += seconds * 1000
    },
  }
}

describe('DESIGN §9: backendTokens', () => {
  it('caches a token until expiresAt − 60 s by default', async () => {
    const time = clock()
    const fake = server()
    const tokens = client(fake.fetch, time.now).backendTokens()
    expect(await tokens.accessToken()).toBe('at-1')
    time.advance(239)
    expect(await tokens.accessToken()).toBe('at-1')
    time.advance(2) // 241 s into a 300 s token: less than 60 s left
    expect(await tokens.accessToken()).toBe('at-2')
    expect(fake.tokenRequests()).toBe(2)
  })

  it('honours a given minValiditySeconds', async () => {
    const time = clock()
    const fake = server()
    const tokens = client(fake.fetch, time.now).backendTokens({ minValiditySeconds: 120 })
    await tokens.accessToken()
    time.advance(179)
    expect(await tokens.accessToken()).toBe('at-1')
    time.advance(2)
    expect(await tokens.accessToken()).toBe('at-2')
  })

  it('caches a response without expires_in for 0 s: every call asks again', async () => {
    const fake = server((n) => ({ access_token: `at-${n}`, token_type: 'Bearer' }))
    const tokens = client(fake.fetch, clock().now).backendTokens()
    expect(await tokens.accessToken()).toBe('at-1')
    expect(await tokens.accessToken()).toBe('at-2')
    expect(fake.tokenRequests()).toBe(2)
  })

  it('one entry per scopes: the same set in another order is shared, another set is not', async () => {
    const fake = server()
    const app = client(fake.fetch, clock().now)
    const store = memoryStore()
    const a = app.backendTokens({ scopes: ['system/Patient.rs', 'system/Observation.rs'], store })
    const b = app.backendTokens({ scopes: ['system/Observation.rs', 'system/Patient.rs'], store })
    const c = app.backendTokens({ scopes: ['system/Patient.rs'], store })
    expect(await a.accessToken()).toBe(await b.accessToken())
    expect(await c.accessToken()).not.toBe(await a.accessToken())
    expect(fake.tokenRequests()).toBe(2)
  })

  it('one entry per client id in a shared store: two clients of the same id share, another id does not', async () => {
    const fake = server()
    const time = clock()
    const store = memoryStore()
    const first = client(fake.fetch, time.now).backendTokens({ store })
    const second = client(fake.fetch, time.now).backendTokens({ store })
    const other = client(fake.fetch, time.now, 'other-service').backendTokens({ store })
    expect(await first.accessToken()).toBe('at-1')
    expect(await second.accessToken()).toBe('at-1')
    expect(await other.accessToken()).toBe('at-2')
  })

  it('fetch: a 401 invalidates and retries once with a new token; a second 401 is returned', async () => {
    const fake = server(undefined, (authorization) =>
      authorization === 'Bearer at-2'
        ? jsonResponse({ resourceType: 'Patient' })
        : new Response('', { status: 401 }),
    )
    const tokens = client(fake.fetch, clock().now).backendTokens()
    expect((await tokens.fetch('Patient/1')).status).toBe(200)
    expect(fake.bearers()).toEqual(['Bearer at-1', 'Bearer at-2'])
    expect(await tokens.accessToken()).toBe('at-2')

    const refusing = server(undefined, () => new Response('', { status: 401 }))
    const refused = client(refusing.fetch, clock().now).backendTokens()
    expect((await refused.fetch('Patient/1')).status).toBe(401)
    expect(refusing.bearers()).toEqual(['Bearer at-1', 'Bearer at-2'])
    expect(refusing.tokenRequests()).toBe(2)
  })

  it('invalidate() makes the next call ask again', async () => {
    const fake = server()
    const tokens = client(fake.fetch, clock().now).backendTokens()
    expect(await tokens.accessToken()).toBe('at-1')
    await expect(tokens.invalidate()).resolves.toBeUndefined()
    expect(await tokens.accessToken()).toBe('at-2')
  })

  it('backendTokens is synchronous; under a UDAP b2c or tiered_oauth flow it throws on flow at once', async () => {
    const app = client(server().fetch, clock().now)
    expect(app.backendTokens()).toBeInstanceOf(BackendTokens)
    for (const flow of ['b2c', 'tiered_oauth'] as const) {
      const udap = new Client({ baseUrl }, { protocol: 'udap', flow, fetch: fakeRoutes({}).fetch })
      let error: unknown
      try {
        udap.backendTokens({ scopes: ['system/Patient.rs'] })
      } catch (thrown) {
        error = thrown
      }
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject({ invalidAttribute: 'flow', invalidValue: flow })
      await expect(
        udap.requestBackendToken({ scopes: ['system/Patient.rs'] }),
      ).rejects.toMatchObject({ invalidAttribute: 'flow' })
    }
  })

  it('accessToken, invalidate and fetch work detached from the handle (passed as a token provider)', async () => {
    const fake = server()
    const { accessToken, invalidate, fetch } = client(fake.fetch, clock().now).backendTokens()
    const provider: () => Promise<string> = accessToken
    expect(await provider()).toBe('at-1')
    await invalidate()
    expect(await accessToken()).toBe('at-2')
    expect((await fetch('Patient/1')).status).toBe(200)
    expect(fake.bearers()).toEqual(['Bearer at-2'])
  })

  it('a signal given to backendTokens (not one of its options: it must never abort the shared token requests) is an unknown option', async () => {
    const fake = server()
    const make = () =>
      client(fake.fetch, clock().now).backendTokens({ signal: AbortSignal.abort() } as never)
    expect(make).toThrow(ConfigurationError)
    expect(make).toThrow(/unknown option "signal" in options of backendTokens; valid options: /)
    expect(fake.tokenRequests()).toBe(0)
  })
})
