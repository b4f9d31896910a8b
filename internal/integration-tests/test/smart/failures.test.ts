/**
 * Failure paths through the `Client` against real servers, each with the precise error class
 * and fields: OAuth errors from the strict SMART server, a server that is down, a server that
 * hangs, a wrong `aud`, and the configuration checks in the spec's order.
 */

import {
  Client,
  ConfigurationError,
  DiscoveryError,
  HttpError,
  RegistrationError,
  TokenError,
} from '@fhir-auth/client'
import { generateClientKeys, sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { type RefusingOrigin, refusingLoopbackOrigin } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  authorizeWithClient,
  discoveryRequestCount,
  readPatientStatus,
  rejectionOf,
  requestsTo,
} from './support/flows.js'
import { type HangingServer, startHangingServer } from './support/local-servers.js'
import {
  appClient,
  backendClient,
  clientIds,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture
let hanging: HangingServer
/** A server that is down: its port refuses connections for the whole file. */
let down: RefusingOrigin

beforeAll(async () => {
  ;[fixture, hanging, down] = await Promise.all([
    startSmartFixture(),
    startHangingServer(),
    refusingLoopbackOrigin(),
  ])
})

afterAll(async () => {
  await Promise.all([fixture?.sandbox.close(), hanging?.close(), down?.close()])
})

function expectTransportCause(error: unknown, reason: string): void {
  const cause = (error as { cause?: unknown }).cause
  expect(cause).toBeInstanceOf(HttpError)
  expect(cause).toMatchObject({ reason })
}

describe('OAuth errors from the token endpoint', () => {
  it('a wrong code is TokenError invalid_grant with status 400', async () => {
    const client = appClient(fixture, 'public')
    const { codeVerifier } = await authorizeWithClient(client, fixture.sandbox)
    const error = await rejectionOf(
      client.requestAccessToken({ code: 'a-code-the-server-never-issued', codeVerifier }),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ code: 'ERR_TOKEN', error: 'invalid_grant', status: 400 })
    expect(typeof (error as TokenError).errorDescription).toBe('string')
  })

  it('a replayed code is TokenError invalid_grant with status 400, and revokes the first tokens', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'symmetric')
    const authorization = await authorizeWithClient(client, sandbox)
    const exchange = { code: authorization.code, codeVerifier: authorization.codeVerifier }
    const tokens = await client.requestAccessToken(exchange)
    expect(await readPatientStatus(sandbox, String(tokens.patient), tokens.access_token)).toBe(200)

    const error = await rejectionOf(client.requestAccessToken(exchange))
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_grant', status: 400 })
    expect(await readPatientStatus(sandbox, String(tokens.patient), tokens.access_token)).toBe(401)
  })

  it('a wrong client secret is TokenError invalid_client', async () => {
    const client = appClient(fixture, 'symmetric', { clientSecret: 'not-the-registered-secret' })
    const authorization = await authorizeWithClient(client, fixture.sandbox)
    const error = await rejectionOf(
      client.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      }),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 })
  })

  it('a per-call client secret overrides the configured one', async () => {
    const client = appClient(fixture, 'symmetric', { clientSecret: 'not-the-registered-secret' })
    const authorization = await authorizeWithClient(client, fixture.sandbox)
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
      clientSecret: fixture.symmetricSecret,
    })
    expect(typeof tokens.access_token).toBe('string')
  })

  it.each([
    ['the registered kid', true],
    ['its own kid', false],
  ])(
    'an assertion signed by a key the server does not know (%s) is TokenError invalid_client',
    async (_label, reuseRegisteredKid) => {
      const foreign = await generateClientKeys('RS384')
      const kid = reuseRegisteredKid ? fixture.rs384Keys.kid : foreign.kid
      const appError = await (async () => {
        const client = appClient(fixture, 'RS384', { privateKey: foreign.privateKeyPem, kid })
        const authorization = await authorizeWithClient(client, fixture.sandbox)
        return rejectionOf(
          client.requestAccessToken({
            code: authorization.code,
            codeVerifier: authorization.codeVerifier,
          }),
        )
      })()
      expect(appError).toBeInstanceOf(TokenError)
      expect(appError).toMatchObject({ error: 'invalid_client', status: 401 })

      const backendError = await rejectionOf(
        backendClient(fixture, 'RS384').requestBackendToken({
          scopes: ['system/*.rs'],
          privateKey: foreign.privateKeyPem,
          kid,
        }),
      )
      expect(backendError).toBeInstanceOf(TokenError)
      expect(backendError).toMatchObject({ error: 'invalid_client', status: 401 })
    },
  )

  it('an expired assertion (the client clock ten minutes behind) is TokenError invalid_client', async () => {
    const tenMinutesAgo = () => new Date(Date.now() - 10 * 60 * 1000)
    const client = backendClient(fixture, 'ES384', {}, { now: tenMinutesAgo })
    const error = await rejectionOf(client.requestBackendToken({ scopes: ['system/*.rs'] }))
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 })
  })
})

describe('servers that are down or hang', () => {
  it('discovery from a closed port is DiscoveryError with cause reason network', async () => {
    const { origin } = down
    const client = new Client({ baseUrl: `${origin}/fhir`, allowInsecureLocalhost: true })
    const error = await rejectionOf(client.serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(error).toMatchObject({
      endpoint: `${origin}/fhir/.well-known/smart-configuration`,
      status: undefined,
    })
    expectTransportCause(error, 'network')
  })

  it('a token request to a closed port is TokenError with cause reason network', async () => {
    const { origin } = down
    const client = backendClient(fixture, 'RS384', { tokenEndpoint: `${origin}/token` })
    const error = await rejectionOf(client.requestBackendToken({ scopes: ['system/*.rs'] }))
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ status: undefined, error: undefined })
    expectTransportCause(error, 'network')
  })

  it('a registration at a closed port is RegistrationError with cause reason network', async () => {
    const { origin } = down
    const client = new Client({ allowInsecureLocalhost: true })
    const error = await rejectionOf(
      client.registerClient(
        { redirect_uris: [sandboxDefaultRedirectUri] },
        { registrationEndpoint: `${origin}/reg`, authorization: 'Bearer never-sent-anywhere' },
      ),
    )
    expect(error).toBeInstanceOf(RegistrationError)
    expectTransportCause(error, 'network')
  })

  it('a token endpoint that never answers is TokenError with cause reason timeout, after timeoutMs', async () => {
    const client = appClient(
      fixture,
      'public',
      { tokenEndpoint: `${hanging.origin}/token` },
      { timeoutMs: 200 },
    )
    const authorization = await authorizeWithClient(client, fixture.sandbox)
    const started = performance.now()
    const error = await rejectionOf(
      client.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      }),
    )
    const elapsed = performance.now() - started
    expect(error).toBeInstanceOf(TokenError)
    expectTransportCause(error, 'timeout')
    // Not before the configured 200 ms, and by that timeout (not the 10 s default): no upper
    // wall-clock bound, which a loaded machine would break.
    expect(elapsed).toBeGreaterThanOrEqual(190)
    expect((error as { cause: Error }).cause.message).toContain('timed out after 200 ms')
    expect(hanging.requestCount).toBeGreaterThan(0)
  })

  it('discovery that never answers is DiscoveryError with cause reason timeout', async () => {
    const client = new Client(
      { baseUrl: `${hanging.origin}/fhir`, allowInsecureLocalhost: true },
      { timeoutMs: 200 },
    )
    const started = performance.now()
    const error = await rejectionOf(client.serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expectTransportCause(error, 'timeout')
    expect(performance.now() - started).toBeGreaterThanOrEqual(190)
    expect((error as { cause: Error }).cause.message).toContain('timed out after 200 ms')
  })

  it("a caller's AbortSignal ends a hanging request with cause reason aborted", async () => {
    const client = backendClient(fixture, 'ES384', { tokenEndpoint: `${hanging.origin}/token` })
    const controller = new AbortController()
    const pending = rejectionOf(
      client.requestBackendToken({ scopes: ['system/*.rs'], signal: controller.signal }),
    )
    setTimeout(() => controller.abort(), 50)
    const error = await pending
    expect(error).toBeInstanceOf(TokenError)
    expectTransportCause(error, 'aborted')
  })
})

describe('authorization requests the server refuses', () => {
  it('a configured issuer other than the FHIR base makes a wrong aud, and the authorization fails', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public', { issuer: 'https://other.example/fhir' })
    const request = await client.authorizationUrl()
    expect(new URL(request.authUrl).searchParams.get('aud')).toBe('https://other.example/fhir')
    const result = await sandbox.authorize({ url: request.authUrl })
    expect(result.code).toBeUndefined()
    expect(result.error).toBe('invalid_request')
    expect(result.errorDescription).toContain('aud')
    expect(result.state).toBe(request.state)
  })

  it('the user denying consent comes back as access_denied with our state', async () => {
    const client = appClient(fixture, 'public')
    const request = await client.authorizationUrl()
    const result = await fixture.sandbox.authorize({ url: request.authUrl }, { decision: 'deny' })
    expect(result.error).toBe('access_denied')
    expect(result.state).toBe(request.state)
  })
})

describe('configuration checks on a real client', () => {
  it('authorizationUrl checks method, clientId, scopes, redirectUri, then the endpoint, in that order', async () => {
    const { sandbox } = fixture
    const before = discoveryRequestCount(sandbox)
    const base = { baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true }
    const cases = [
      {
        client: new Client(base),
        options: { method: 'put' },
        expected: { invalidAttribute: 'method', invalidValue: 'put', validValues: ['get', 'post'] },
      },
      { client: new Client(base), options: {}, expected: { invalidAttribute: 'clientId' } },
      {
        client: new Client({ ...base, clientId: clientIds.public }),
        options: {},
        expected: { invalidAttribute: 'scopes' },
      },
      {
        client: new Client({ ...base, clientId: clientIds.public, scopes: ['launch/patient'] }),
        options: {},
        expected: { invalidAttribute: 'redirectUri' },
      },
    ]
    for (const { client, options, expected } of cases) {
      const error = await rejectionOf(
        client.authorizationUrl(options as Parameters<Client['authorizationUrl']>[0]),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject(expected)
    }
    // None of these checks needed the server.
    expect(discoveryRequestCount(sandbox)).toBe(before)

    // Last: the authorization endpoint, neither configured nor in the discovered document.
    sandbox.setDiscoveryOverride({
      document: (document) => {
        const { authorization_endpoint: _removed, ...rest } = document
        return rest
      },
    })
    try {
      const complete = new Client({
        ...base,
        clientId: clientIds.public,
        scopes: ['launch/patient'],
        redirectUri: sandboxDefaultRedirectUri,
      })
      const error = await rejectionOf(complete.authorizationUrl())
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject({ invalidAttribute: 'authorizationEndpoint' })
      expect(discoveryRequestCount(sandbox)).toBe(before + 1)
    } finally {
      sandbox.setDiscoveryOverride(undefined)
    }
  })

  it('blank customScopes do not replace missing scopes', async () => {
    const client = new Client({
      baseUrl: fixture.sandbox.fhirBaseUrl,
      clientId: clientIds.public,
      redirectUri: sandboxDefaultRedirectUri,
      allowInsecureLocalhost: true,
    })
    const error = await rejectionOf(client.authorizationUrl({ customScopes: [' '] }))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'scopes' })
  })

  it('token flows without clientId or credentials fail with ConfigurationError before any request', async () => {
    const { sandbox } = fixture
    const before = requestsTo(sandbox, sandbox.endpoints.token).length
    const noClientId = appClient(fixture, 'public', { clientId: null })
    await expect(
      noClientId.requestAccessToken({ code: 'some-code-value', codeVerifier: 'v'.repeat(43) }),
    ).rejects.toMatchObject({ name: 'ConfigurationError', invalidAttribute: 'clientId' })
    await expect(
      noClientId.refreshToken({ refreshToken: 'some-refresh-value' }),
    ).rejects.toMatchObject({ name: 'ConfigurationError', invalidAttribute: 'clientId' })
    await expect(
      backendClient(fixture, 'RS384', { clientId: null }).requestBackendToken({
        scopes: ['system/*.rs'],
      }),
    ).rejects.toMatchObject({
      name: 'ConfigurationError',
      invalidAttribute: 'clientId',
    })
    const noSecret = appClient(fixture, 'symmetric', { clientSecret: null })
    await expect(
      noSecret.requestAccessToken({ code: 'some-code-value', codeVerifier: 'v'.repeat(43) }),
    ).rejects.toMatchObject({ name: 'ConfigurationError', invalidAttribute: 'clientSecret' })
    const noKid = appClient(fixture, 'ES384', { kid: null })
    await expect(
      noKid.requestAccessToken({ code: 'some-code-value', codeVerifier: 'v'.repeat(43) }),
    ).rejects.toMatchObject({ name: 'ConfigurationError', invalidAttribute: 'kid' })
    expect(requestsTo(sandbox, sandbox.endpoints.token)).toHaveLength(before)
  })

  it('new Client checks clientType kind, protocol, then clientType value, with the spec fields', () => {
    const construct = (options: unknown) => () =>
      new Client(
        { baseUrl: fixture.sandbox.fhirBaseUrl, allowInsecureLocalhost: true },
        options as ConstructorParameters<typeof Client>[1],
      )
    const allTypes = ['public', 'confidential_symmetric', 'confidential_asymmetric']
    expect(construct({ protocol: 'oauth', clientType: 42 })).toThrow(
      expect.objectContaining({ invalidAttribute: 'clientType', validValues: allTypes }),
    )
    expect(construct({ protocol: 'oauth', clientType: 'private' })).toThrow(
      expect.objectContaining({ invalidAttribute: 'protocol', validValues: ['smart', 'udap'] }),
    )
    expect(construct({ clientType: 'private' })).toThrow(
      expect.objectContaining({ invalidAttribute: 'clientType', validValues: allTypes }),
    )
    expect(construct({ protocol: 'udap', clientType: 'public' })).toThrow(
      expect.objectContaining({ invalidAttribute: 'clientType' }),
    )
    const client = new Client({
      baseUrl: fixture.sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
    })
    expect(client.clientType).toBe('public')
    expect(() => {
      client.clientType = 'private' as 'public'
    }).toThrow(ConfigurationError)
    expect(client.clientType).toBe('public')
  })
})
