/**
 * DESIGN §12 against the real SMART sandbox (oidc-provider, which requires `aud` to equal the
 * FHIR base URL exactly): a trailing slash on `baseUrl` is not significant; a blank discovered
 * endpoint counts as absent; configured URLs are held to the HTTPS policy (and refused with
 * user info) when the `Client` is built, before anything is sent.
 */
import { Client, ConfigurationError, DiscoveryError } from '@fhir-auth/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authorizeWithClient,
  codeExchange,
  lastRequestTo,
  rejectionOf,
  requestsTo,
} from './support/flows.js'
import { appConfig, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

describe('a baseUrl with a trailing slash', () => {
  it.each(['/', '//'])(
    'sends aud without it, discovers once at the right URL, and the server accepts the launch (%s)',
    async (slashes) => {
      const { sandbox } = fixture
      const discoveries = requestsTo(sandbox, sandbox.endpoints.discovery).length
      const client = new Client(
        appConfig(fixture, 'public', { baseUrl: `${sandbox.fhirBaseUrl}${slashes}` }),
      )
      expect(client.config.baseUrl).toBe(sandbox.fhirBaseUrl)
      const authorization = await authorizeWithClient(client, sandbox)
      expect(lastRequestTo(sandbox, sandbox.endpoints.authorization).query?.aud).toBe(
        sandbox.fhirBaseUrl,
      )
      expect(requestsTo(sandbox, sandbox.endpoints.discovery).length).toBe(discoveries + 1)
      const tokens = await client.requestAccessToken(codeExchange(authorization))
      expect(typeof tokens.access_token).toBe('string')
    },
  )
})

describe('a blank discovered endpoint', () => {
  it.each(['', '   '])(
    'authorization_endpoint %j is absent: no authorize URL is built',
    async (blank) => {
      const { sandbox } = fixture
      sandbox.setDiscoveryOverride({
        document: (document) => ({ ...document, authorization_endpoint: blank }),
      })
      try {
        const client = new Client(appConfig(fixture, 'public'))
        const error = await rejectionOf(client.authorizationUrl())
        expect(error).toBeInstanceOf(ConfigurationError)
        expect(error).toMatchObject({ invalidAttribute: 'authorizationEndpoint' })
      } finally {
        sandbox.setDiscoveryOverride(undefined)
      }
    },
  )

  it('token_endpoint "" is absent: a DiscoveryError names it and nothing is posted', async () => {
    const { sandbox } = fixture
    const tokenRequests = requestsTo(sandbox, sandbox.endpoints.token).length
    sandbox.setDiscoveryOverride({
      document: (document) => ({ ...document, token_endpoint: '' }),
    })
    try {
      const client = new Client(appConfig(fixture, 'public'))
      const error = await rejectionOf(
        client.requestAccessToken({ code: 'some-code-value', codeVerifier: 'v'.repeat(43) }),
      )
      expect(error).toBeInstanceOf(DiscoveryError)
      expect((error as DiscoveryError).message).toMatch(/no token_endpoint/)
      expect(requestsTo(sandbox, sandbox.endpoints.token).length).toBe(tokenRequests)
    } finally {
      sandbox.setDiscoveryOverride(undefined)
    }
  })
})

describe('configured URLs are checked when the Client is built', () => {
  it.each(['authorizationEndpoint', 'tokenEndpoint', 'jwksUri', 'issuer', 'baseUrl'])(
    'http://evil.example as %s is a ConfigurationError before any request',
    (attribute) => {
      const { sandbox } = fixture
      const requests = sandbox.requests.length
      const build = () =>
        new Client(appConfig(fixture, 'RS384', { [attribute]: 'http://evil.example/x' }))
      expect(build).toThrow(ConfigurationError)
      expect(build).toThrow(/must be HTTPS/)
      expect(sandbox.requests.length).toBe(requests)
    },
  )

  it('refuses credentials in baseUrl without repeating them', () => {
    const { sandbox } = fixture
    const withCredentials = sandbox.fhirBaseUrl.replace('://', '://admin:hunter2-password@')
    let caught: unknown
    try {
      new Client(appConfig(fixture, 'public', { baseUrl: withCredentials }))
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigurationError)
    expect(
      JSON.stringify([String(caught), (caught as Error).stack, { ...(caught as object) }]),
    ).not.toMatch(/hunter2|admin/)
  })
})
