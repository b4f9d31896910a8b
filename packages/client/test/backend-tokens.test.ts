/**
 * `client.backendTokens` on its own (the protocol is shared-token-cache.test.ts, the real
 * servers are the integration tests): options checked when the handle is made, one token request
 * for concurrent callers through `Client`, what the handle shows when logged, and failures that
 * stay typed — an identity that cannot be worked out, a discovery that fails and is retried.
 */
import { inspect } from 'node:util'
import { Client, ConfigurationError, DiscoveryError, type FetchLike } from '@fhir-auth/client'
import { fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import {
  baseUrl,
  configurationError,
  discoveryUrl,
  ecKeyPem,
  smartConfiguration,
} from './support.js'

const keyPem = ecKeyPem()

function backendClient(fetch: FetchLike, overrides: Record<string, unknown> = {}): Client {
  return new Client(
    { baseUrl, clientId: 'service', privateKey: keyPem, kid: 'k1', ...overrides },
    { clientType: 'confidential_asymmetric', fetch },
  )
}

const discovery = () => ({
  method: 'GET' as const,
  url: discoveryUrl,
  respond: () => jsonResponse(smartConfiguration),
})
const tokenRequest = (accessToken: string, scope = 'system/Patient.rs') => ({
  method: 'POST' as const,
  url: smartConfiguration.token_endpoint,
  form: {
    grant_type: 'client_credentials',
    scope,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: expect.any(String),
  },
  respond: () =>
    jsonResponse({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 300,
      scope,
    }),
})

describe('client.backendTokens', () => {
  it('checks minValiditySeconds and store when the handle is made, before any request', () => {
    const client = backendClient(fakeFetch())
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, '60', {}]) {
      const error = configurationError(() =>
        client.backendTokens({ minValiditySeconds: value as number }),
      )
      expect(error.invalidAttribute).toBe('minValiditySeconds')
    }
    const throwingStore = new Proxy(
      {},
      {
        get() {
          throw new Error('store internals')
        },
      },
    )
    for (const store of ['redis://localhost', 42, { get() {} }, throwingStore]) {
      const error = configurationError(() => client.backendTokens({ store: store as never }))
      expect(error.invalidAttribute).toBe('store')
      expect(error.message).not.toContain('store internals')
    }
    expect(client.backendTokens({ minValiditySeconds: 0 })).toBeDefined()
  })

  it('refuses scopes or a b2b context it cannot copy when the handle is made', () => {
    const client = backendClient(fakeFetch())
    const unreadable = new Proxy(['system/Patient.rs'], {
      get() {
        throw new Error('scope internals')
      },
    })
    const scopesError = configurationError(() => client.backendTokens({ scopes: unreadable }))
    expect(scopesError.invalidAttribute).toBe('scopes')
    expect(scopesError.message).not.toContain('scope internals')
    const cyclic: Record<string, unknown> = { organizationId: 'https://org.example' }
    cyclic.self = cyclic
    const b2bError = configurationError(() => client.backendTokens({ b2b: cyclic as never }))
    expect(b2bError.invalidAttribute).toBe('b2b')
  })

  it('concurrent callers share one token request; the handle never shows the token', async () => {
    const fetch = fakeFetch(discovery(), tokenRequest('secret-access-token-1'))
    const tokens = backendClient(fetch).backendTokens({ scopes: ['system/Patient.rs'] })
    const got = await Promise.all(Array.from({ length: 20 }, () => tokens.accessToken()))
    expect(new Set(got)).toEqual(new Set(['secret-access-token-1']))
    expect(JSON.stringify(tokens)).not.toContain('secret-access-token-1')
    expect(inspect(tokens, { depth: 10, showHidden: true })).not.toContain('secret-access-token-1')
    expect(tokens.toJSON()).toEqual({ baseUrl, minValiditySeconds: 60 })
  })

  it('asks for the scopes it was made with, whatever the caller does to its array afterwards', async () => {
    const fetch = fakeFetch(
      discovery(),
      tokenRequest('at-patients-1'),
      tokenRequest('at-patients-2'),
      tokenRequest('at-observations', 'system/Observation.rs'),
    )
    const client = backendClient(fetch)
    const scopes = ['system/Patient.rs']
    const patients = client.backendTokens({ scopes })
    // An app reusing its array for the next handle, before and after this one's first token.
    scopes[0] = 'system/Observation.rs'
    expect(await patients.accessToken()).toBe('at-patients-1')
    scopes.push('system/Encounter.rs')
    await patients.invalidate()
    expect(await patients.accessToken()).toBe('at-patients-2')
    // The entry of Patient scopes holds a Patient token, and the Observation one its own.
    const again = client.backendTokens({ scopes: ['system/Patient.rs'] })
    expect(await again.accessToken()).toBe('at-patients-2')
    const observations = client.backendTokens({ scopes: ['system/Observation.rs'] })
    expect(await observations.accessToken()).toBe('at-observations')
    expect(fetch.calls).toHaveLength(4)
  })

  it('fetch resolves relative URLs under the base URL and sends the token there', async () => {
    const fetch = fakeFetch(discovery(), tokenRequest('at-1'), {
      method: 'GET',
      url: `${baseUrl}/Patient/1`,
      headers: { authorization: 'Bearer at-1' },
      respond: () => jsonResponse({ resourceType: 'Patient', id: '1' }),
    })
    const tokens = backendClient(fetch).backendTokens({ scopes: ['system/Patient.rs'] })
    expect((await tokens.fetch('Patient/1')).status).toBe(200)
  })

  it('an identity that cannot be worked out is the ConfigurationError of the request, and nothing is sent', async () => {
    const fetch = fakeFetch()
    const tokens = backendClient(fetch, { clientId: undefined }).backendTokens()
    const error = await tokens.accessToken().catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'clientId' })
    expect(fetch.calls).toHaveLength(0)
  })

  it('a failed discovery is a DiscoveryError, and the next call tries again', async () => {
    const fetch = fakeFetch(
      { method: 'GET', url: discoveryUrl, respond: () => new Response('down', { status: 503 }) },
      discovery(),
      tokenRequest('at-after-retry'),
    )
    const client = new Client(
      { baseUrl, clientId: 'service', privateKey: keyPem, kid: 'k1' },
      {
        clientType: 'confidential_asymmetric',
        fetch,
        logger: { info() {}, warn() {}, error() {} },
      },
    )
    const tokens = client.backendTokens({ scopes: ['system/Patient.rs'] })
    await expect(tokens.accessToken()).rejects.toBeInstanceOf(DiscoveryError)
    expect(await tokens.accessToken()).toBe('at-after-retry')
  })
})
