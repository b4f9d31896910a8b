/**
 * SMART discovery through the `Client` against the real document: accessors and predicates,
 * the cache (one request across many operations and a client-type change; concurrent callers
 * share one request), failures that are not cached, relative endpoint URLs, and a discovered
 * plain-HTTP endpoint that the library must refuse.
 */
import { Client, ConfigurationError, DiscoveryError, TokenError } from '@fhir-auth/client'
import { sandboxCapabilities } from '@fhir-auth/sandbox'
import { validateSmartMetadata } from '@fhir-auth/smart'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectBasicAuthentication } from './support/assertions.js'
import {
  authorizeWithClient,
  discoveryRequestCount,
  lastRequestTo,
  rejectionOf,
  requestsTo,
} from './support/flows.js'
import {
  appClient,
  backendClient,
  clientIds,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterEach(() => {
  fixture?.sandbox.setDiscoveryOverride(undefined)
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

describe('serverMetadata on the real document', () => {
  it('exposes the endpoints and lists the server announces', async () => {
    const { sandbox } = fixture
    const metadata = await appClient(fixture, 'public').serverMetadata()
    expect(metadata.authorizationEndpoint).toBe(sandbox.endpoints.authorization)
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    expect(metadata.registrationEndpoint).toBe(sandbox.endpoints.registration)
    expect(metadata.jwksUri).toBe(sandbox.endpoints.jwks)
    expect(metadata.introspectionEndpoint).toBe(sandbox.endpoints.introspection)
    expect(metadata.revocationEndpoint).toBe(sandbox.endpoints.revocation)
    expect(metadata.issuer).toBe(sandbox.issuer)
    expect(metadata.discoveryUrl).toBe(sandbox.endpoints.discovery)
    expect([...metadata.capabilities].sort()).toEqual([...sandboxCapabilities].sort())
    expect(metadata.grantTypesSupported).toEqual([
      'authorization_code',
      'client_credentials',
      'refresh_token',
    ])
    expect(metadata.tokenEndpointAuthMethodsSupported).toEqual([
      'client_secret_basic',
      'private_key_jwt',
    ])
    expect(metadata.tokenEndpointAuthSigningAlgValuesSupported).toEqual(['RS384', 'ES384'])
    expect(metadata.codeChallengeMethodsSupported).toEqual(['S256'])
    expect(metadata.responseTypesSupported).toEqual(['code'])
    expect(metadata.scopesSupported).toContain('launch')

    const served: unknown = await (await fetch(sandbox.endpoints.discovery)).json()
    expect(metadata.raw).toEqual(served)
    expect(JSON.parse(JSON.stringify(metadata))).toEqual(served)
  })

  it('answers every predicate as the document says', async () => {
    const metadata = await appClient(fixture, 'public').serverMetadata()
    expect(metadata.supportsSymmetricAuth()).toBe(true)
    expect(metadata.supportsAsymmetricAuth()).toBe(true)
    expect(metadata.supportsPublicAuth()).toBe(true)
    expect(metadata.supportsPostAuthorization()).toBe(true)
    expect(metadata.supportsEhrLaunch()).toBe(true)
    expect(metadata.supportsStandaloneLaunch()).toBe(true)
    expect(metadata.supportsBackendServices()).toBe(true)
    expect(metadata.supportsDynamicRegistration()).toBe(true)
    expect(metadata.supportsOpenIdConnect()).toBe(true)
    expect(metadata.supportsPkceS256()).toBe(true)
    const logger = createCapturingLogger()
    expect(validateSmartMetadata(metadata, logger)).toBe(true)
    expect(logger.entries).toEqual([])
  })

  it('answers the predicates false when the document withdraws the capabilities', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      document: (document) => {
        document.capabilities = document.capabilities.filter(
          (capability) =>
            !['client-confidential-symmetric', 'authorize-post', 'launch-ehr'].includes(capability),
        )
        document.token_endpoint_auth_methods_supported = ['private_key_jwt']
        return undefined
      },
    })
    const metadata = await appClient(fixture, 'public').serverMetadata()
    expect(metadata.supportsSymmetricAuth()).toBe(false)
    expect(metadata.supportsPostAuthorization()).toBe(false)
    expect(metadata.supportsEhrLaunch()).toBe(false)
    expect(metadata.supportsAsymmetricAuth()).toBe(true)
  })
})

describe('the discovery cache', () => {
  it('fetches the document once across many operations, including after a client-type change', async () => {
    const { sandbox } = fixture
    const before = discoveryRequestCount(sandbox)
    const client = appClient(fixture, 'symmetric')
    const first = await client.serverMetadata()
    const authorization = await authorizeWithClient(client, sandbox)
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    await client.refreshToken({ refreshToken: String(tokens.refresh_token) })
    await client.authorizationUrl({ method: 'post' })

    client.clientType = 'public'
    expect(client.clientType).toBe('public')
    const publicAuthorization = await authorizeWithClient(client, sandbox)
    // The server registered this client as confidential, so it refuses the now unauthenticated
    // request; the wire shows the public client type applied: client_id in the form, no Basic header.
    const refused = await rejectionOf(
      client.requestAccessToken({
        code: publicAuthorization.code,
        codeVerifier: publicAuthorization.codeVerifier,
      }),
    )
    expect(refused).toBeInstanceOf(TokenError)
    expect(refused).toMatchObject({ error: 'invalid_client' })
    const publicRequest = lastRequestTo(sandbox, sandbox.endpoints.token)
    expect(publicRequest.form?.client_id).toBe(clientIds.symmetric)
    expect(publicRequest.headers.authorization).toBeUndefined()

    client.clientType = 'confidential_symmetric'
    const symmetricAuthorization = await authorizeWithClient(client, sandbox)
    await client.requestAccessToken({
      code: symmetricAuthorization.code,
      codeVerifier: symmetricAuthorization.codeVerifier,
    })
    expectBasicAuthentication(
      lastRequestTo(sandbox, sandbox.endpoints.token),
      clientIds.symmetric,
      fixture.symmetricSecret,
    )
    expect(await client.serverMetadata()).toBe(first)
    expect(discoveryRequestCount(sandbox) - before).toBe(1)
  })

  it('shares one request among 100 concurrent serverMetadata calls', async () => {
    const { sandbox } = fixture
    const before = discoveryRequestCount(sandbox)
    const client = appClient(fixture, 'public')
    const results = await Promise.all(Array.from({ length: 100 }, () => client.serverMetadata()))
    expect(new Set(results).size).toBe(1)
    expect(discoveryRequestCount(sandbox) - before).toBe(1)
  })

  it('keeps one cache per client: a second client fetches its own document', async () => {
    const { sandbox } = fixture
    const before = discoveryRequestCount(sandbox)
    await appClient(fixture, 'public').serverMetadata()
    await backendClient(fixture, 'RS384').serverMetadata()
    expect(discoveryRequestCount(sandbox) - before).toBe(2)
  })

  it('does not cache a failure: HTTP 500 gives DiscoveryError, and the next call succeeds', async () => {
    const { sandbox } = fixture
    const logger = createCapturingLogger()
    const client = appClient(fixture, 'public', {}, { logger })
    sandbox.setDiscoveryOverride({
      response: { status: 500, contentType: 'application/json', body: '{"error":"boom"}' },
    })
    const before = discoveryRequestCount(sandbox)
    const error = await rejectionOf(client.serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).toMatchObject({
      code: 'ERR_DISCOVERY',
      status: 500,
      endpoint: sandbox.endpoints.discovery,
    })
    expect(logger.messages('error')).toHaveLength(1)
    expect(logger.messages('error')[0]).toContain('500')

    const failedAuthorization = await rejectionOf(client.authorizationUrl())
    expect(failedAuthorization).toBeInstanceOf(DiscoveryError)

    sandbox.setDiscoveryOverride(undefined)
    const metadata = await client.serverMetadata()
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    await client.authorizationUrl()
    expect(discoveryRequestCount(sandbox) - before).toBe(3)
  })

  it('reports a document that is not a JSON object as DiscoveryError with its status', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({ document: () => ['not', 'an', 'object'] })
    const error = await rejectionOf(appClient(fixture, 'public').serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).toMatchObject({ endpoint: sandbox.endpoints.discovery })
  })

  it('reports a 200 response whose body is not JSON as DiscoveryError', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      response: { status: 200, contentType: 'application/json', body: '{"issuer": ' },
    })
    const error = await rejectionOf(appClient(fixture, 'public').serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).toMatchObject({ endpoint: sandbox.endpoints.discovery })
  })

  it('reports an HTML error page as DiscoveryError with its status', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      response: { status: 404, contentType: 'text/html', body: '<h1>Not found</h1>' },
    })
    const error = await rejectionOf(appClient(fixture, 'public').serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).toMatchObject({ status: 404 })
  })
})

describe('discovered endpoints', () => {
  it('resolves relative endpoint URLs against the FHIR base and completes a flow with them', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      document: (document) => {
        document.authorization_endpoint = '../auth'
        document.token_endpoint = '../token'
        document.registration_endpoint = '../reg'
        return undefined
      },
    })
    const client = appClient(fixture, 'RS384')
    const metadata = await client.serverMetadata()
    expect(metadata.raw.token_endpoint).toBe('../token')
    expect(metadata.authorizationEndpoint).toBe(sandbox.endpoints.authorization)
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    expect(metadata.registrationEndpoint).toBe(sandbox.endpoints.registration)

    const request = await client.authorizationUrl()
    expect(request.authUrl.startsWith(`${sandbox.endpoints.authorization}?`)).toBe(true)
    const authorization = await authorizeWithClient(client, sandbox)
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expect(typeof tokens.access_token).toBe('string')
  })

  it('keeps a query the discovered authorization endpoint already has', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      document: (document) => {
        document.authorization_endpoint = `${sandbox.endpoints.authorization}?tenant=north`
        return undefined
      },
    })
    const client = appClient(fixture, 'public')
    const request = await client.authorizationUrl()
    const url = new URL(request.authUrl)
    expect(url.searchParams.get('tenant')).toBe('north')
    expect(url.searchParams.get('state')).toBe(request.state)
    const authorization = await authorizeWithClient(client, sandbox)
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expect(typeof tokens.access_token).toBe('string')
  })

  it('refuses a discovered plain-HTTP authorization endpoint on a non-loopback host', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      document: (document) => {
        document.authorization_endpoint = 'http://ehr.example.org/authorize'
        return undefined
      },
    })
    const client = appClient(fixture, 'public')
    const error = await rejectionOf(client.authorizationUrl())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).toMatchObject({ endpoint: sandbox.endpoints.discovery })
    expect((error as DiscoveryError).message).toContain('authorization_endpoint')
  })

  it('refuses a discovered plain-HTTP token endpoint before sending the code', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public')
    const authorization = await authorizeWithClient(client, sandbox)
    sandbox.setDiscoveryOverride({
      document: (document) => {
        document.token_endpoint = 'http://ehr.example.org/token'
        return undefined
      },
    })
    const tokenRequestsBefore = requestsTo(sandbox, sandbox.endpoints.token).length
    const fresh = appClient(fixture, 'public')
    const error = await rejectionOf(
      fresh.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      }),
    )
    expect(error).toBeInstanceOf(DiscoveryError)
    expect((error as DiscoveryError).message).toContain('token_endpoint')
    expect(requestsTo(sandbox, sandbox.endpoints.token)).toHaveLength(tokenRequestsBefore)
  })

  it('reports an authorization endpoint that is neither configured nor discovered as ConfigurationError', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({
      document: (document) => {
        const { authorization_endpoint: _removed, ...rest } = document
        return rest
      },
    })
    const error = await rejectionOf(appClient(fixture, 'public').authorizationUrl())
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'authorizationEndpoint' })
  })

  it('uses configured endpoints as they are, without discovery', async () => {
    const { sandbox } = fixture
    const before = discoveryRequestCount(sandbox)
    const client = new Client(
      {
        clientId: clientIds.public,
        redirectUri: 'https://app.example/callback',
        scopes: ['launch/patient', 'patient/*.rs'],
        issuer: sandbox.fhirBaseUrl,
        authorizationEndpoint: sandbox.endpoints.authorization,
        tokenEndpoint: sandbox.endpoints.token,
        allowInsecureLocalhost: true,
      },
      { clientType: 'public' },
    )
    const authorization = await authorizeWithClient(client, sandbox)
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expect(typeof tokens.access_token).toBe('string')
    expect(discoveryRequestCount(sandbox)).toBe(before)
  })

  it('turns a discovery failure during a token request into DiscoveryError, not TokenError', async () => {
    const { sandbox } = fixture
    sandbox.setDiscoveryOverride({ response: { status: 503 } })
    const error = await rejectionOf(backendClient(fixture, 'ES384').requestBackendToken())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).not.toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ status: 503 })
  })
})
