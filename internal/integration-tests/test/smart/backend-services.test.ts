/**
 * SMART Backend Services end to end: `client.requestBackendToken` with RS384 and ES384 keys,
 * per-call scopes, the configured-scopes fallback, the deprecated `system/*.rs` fallback with
 * exactly one warning, and 500 concurrent requests from one client (the server refuses replayed
 * assertions, so 500 successes prove 500 distinct `jti`).
 */
import { ConfigurationError, TokenError } from '@fhir-auth/client'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectAssertionAuthentication, jwtBearerAssertionType } from './support/assertions.js'
import { lastRequestTo, readPatientStatus, rejectionOf, requestsTo } from './support/flows.js'
import { startJsonDocumentServer } from './support/local-servers.js'
import {
  backendClient,
  clientIds,
  keysOf,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

const backendClientIds = { RS384: clientIds.backendRs384, ES384: clientIds.backendEs384 } as const

describe('an unknown option name (ADR 0008)', () => {
  it('requestBackendToken({ scope }) (singular) is a ConfigurationError listing the valid names, and the server hears nothing', async () => {
    const { sandbox } = fixture
    const client = backendClient(fixture, 'ES384')
    const before = sandbox.requests.length
    const error = await rejectionOf(
      client.requestBackendToken({ scope: ['system/Patient.rs'] } as never),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'scope' })
    expect((error as ConfigurationError).message).toMatch(
      /^unknown option "scope" in options of requestBackendToken; valid options: .*\bscopes\b/,
    )
    expect(sandbox.requests.length).toBe(before)
  })
})

describe.each(['RS384', 'ES384'] as const)('backend services with an %s key', (algorithm) => {
  it('gets a system token for per-call scopes and reads any patient with it', async () => {
    const { sandbox } = fixture
    const client = backendClient(fixture, algorithm)
    const tokens = await client.requestBackendToken({ scopes: ['system/Patient.rs'] })

    expect(typeof tokens.access_token).toBe('string')
    expect(tokens.token_type).toBe('Bearer')
    expect(tokens.scope).toBe('system/Patient.rs')
    expect(tokens.expires_in).toBe(300)
    expect(tokens.refresh_token).toBeUndefined()
    expect(client.isTokenResponseValid(tokens, { flow: 'backend_services' })).toBe(true)
    expect(await readPatientStatus(sandbox, 'patient-1', tokens.access_token)).toBe(200)
    expect(await readPatientStatus(sandbox, 'patient-99', tokens.access_token)).toBe(200)

    const request = lastRequestTo(sandbox, sandbox.endpoints.token)
    expect(request.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    expect(request.form?.grant_type).toBe('client_credentials')
    expect(request.form?.scope).toBe('system/Patient.rs')
    expect(request.form?.client_assertion_type).toBe(jwtBearerAssertionType)
    expect(request.form?.client_id).toBeUndefined()
    expect(request.form?.code_verifier).toBeUndefined()
    await expectAssertionAuthentication(
      request,
      keysOf(fixture, algorithm),
      backendClientIds[algorithm],
      sandbox.endpoints.token,
    )
  })

  it('falls back to the configured scopes when the call gives none or only blank ones', async () => {
    const { sandbox } = fixture
    const client = backendClient(fixture, algorithm, { scopes: ['system/*.rs'] })
    const withoutScopes = await client.requestBackendToken()
    expect(lastRequestTo(sandbox, sandbox.endpoints.token).form?.scope).toBe('system/*.rs')
    expect(withoutScopes.scope).toBe('system/*.rs')
    await client.requestBackendToken({ scopes: ['', '  '] })
    expect(lastRequestTo(sandbox, sandbox.endpoints.token).form?.scope).toBe('system/*.rs')
  })
})

describe('backend services', () => {
  it('requests the deprecated system/*.rs fallback with exactly one warning when no scope is usable', async () => {
    const { sandbox } = fixture
    const logger = createCapturingLogger()
    const client = backendClient(fixture, 'ES384', {}, { logger })
    const tokens = await client.requestBackendToken()
    expect(lastRequestTo(sandbox, sandbox.endpoints.token).form?.scope).toBe('system/*.rs')
    expect(tokens.scope).toBe('system/*.rs')
    const warnings = logger.messages('warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/system\/\*\.rs/)
    expect(warnings[0]).toMatch(/deprecated/i)
    expect(warnings[0]).toMatch(/0\.6\.0/)
  })

  it('sends several per-call scopes space-separated', async () => {
    const client = backendClient(fixture, 'RS384')
    const tokens = await client.requestBackendToken({
      scopes: ['system/*.rs', 'system/Patient.rs'],
    })
    expect(String(tokens.scope).split(' ').sort()).toEqual(['system/*.rs', 'system/Patient.rs'])
  })

  it('is refused with invalid_scope for scopes the client may not have', async () => {
    const client = backendClient(fixture, 'RS384')
    const error = await rejectionOf(client.requestBackendToken({ scopes: ['system/*.cruds'] }))
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_scope', status: 400 })
  })

  it('needs a private key: a client without one fails before any request', async () => {
    const { sandbox } = fixture
    const before = requestsTo(sandbox, sandbox.endpoints.token).length
    const client = backendClient(fixture, 'RS384', { privateKey: null })
    const error = await rejectionOf(client.requestBackendToken({ scopes: ['system/*.rs'] }))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'privateKey' })
    expect(requestsTo(sandbox, sandbox.endpoints.token)).toHaveLength(before)
  })

  it('honours an explicit jwtAlgorithm that fits the key, and refuses one that does not before any request', async () => {
    const { sandbox } = fixture
    const fitting = backendClient(fixture, 'RS384', { jwtAlgorithm: 'RS384' })
    await fitting.requestBackendToken({ scopes: ['system/*.rs'] })
    expect(
      (
        await expectAssertionAuthentication(
          lastRequestTo(sandbox, sandbox.endpoints.token),
          fixture.rs384Keys,
          clientIds.backendRs384,
          sandbox.endpoints.token,
        )
      ).header.alg,
    ).toBe('RS384')

    const before = requestsTo(sandbox, sandbox.endpoints.token).length
    for (const [algorithm, jwtAlgorithm] of [
      ['RS384', 'ES384'],
      ['RS384', 'RS256'],
      ['ES384', 'ES256'],
    ] as const) {
      const error = await rejectionOf(
        backendClient(fixture, algorithm, { jwtAlgorithm }).requestBackendToken({
          scopes: ['system/*.rs'],
        }),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject({ invalidAttribute: 'jwtAlgorithm' })
    }
    expect(requestsTo(sandbox, sandbox.endpoints.token)).toHaveLength(before)
  })

  it('uses a per-call key and kid instead of the configured ones', async () => {
    const { sandbox } = fixture
    const client = backendClient(fixture, 'RS384', { privateKey: null, kid: null })
    const tokens = await client.requestBackendToken({
      scopes: ['system/*.rs'],
      privateKey: fixture.rs384Keys.privateKeyPem,
      kid: fixture.rs384Keys.kid,
    })
    expect(typeof tokens.access_token).toBe('string')
    await expectAssertionAuthentication(
      lastRequestTo(sandbox, sandbox.endpoints.token),
      fixture.rs384Keys,
      clientIds.backendRs384,
      sandbox.endpoints.token,
    )
  })

  it('sends jku = the configured jwksUri, and the server verifies with the keys it serves', async () => {
    const { sandbox } = fixture
    const jwks = await startJsonDocumentServer({ keys: [fixture.es384Keys.publicJwk] })
    try {
      await sandbox.addClient({
        client_id: 'backend-jwks-uri',
        token_endpoint_auth_method: 'private_key_jwt',
        grant_types: ['client_credentials'],
        jwks_uri: jwks.url,
      })
      const client = backendClient(fixture, 'ES384', {
        clientId: 'backend-jwks-uri',
        jwksUri: jwks.url,
      })
      const tokens = await client.requestBackendToken({ scopes: ['system/*.rs'] })
      expect(typeof tokens.access_token).toBe('string')
      const verified = await expectAssertionAuthentication(
        lastRequestTo(sandbox, sandbox.endpoints.token),
        fixture.es384Keys,
        'backend-jwks-uri',
        sandbox.endpoints.token,
      )
      expect(verified.header.jku).toBe(jwks.url)
      expect(jwks.requestCount).toBeGreaterThan(0)
    } finally {
      await jwks.close()
    }
  })

  it('serves 500 concurrent requests from one client, each with its own jti', async () => {
    const { sandbox } = fixture
    // A fresh client: the 500 first calls also share one discovery and one key import. The
    // requests queue at one server process: on a loaded CI machine the last answers come long
    // after the default 10 s timeout, which is not what this test is about (jti per request).
    const client = backendClient(
      fixture,
      'ES384',
      { scopes: ['system/*.rs'] },
      { timeoutMs: 60_000 },
    )
    sandbox.clearRequests()
    const started = performance.now()
    const responses = await Promise.all(
      Array.from({ length: 500 }, () => client.requestBackendToken()),
    )
    const elapsed = performance.now() - started

    expect(new Set(responses.map((response) => response.access_token)).size).toBe(500)
    const tokenRequests = requestsTo(sandbox, sandbox.endpoints.token)
    expect(tokenRequests).toHaveLength(500)
    const jtis = tokenRequests.map(
      (request) => decodeJwt(String(request.form?.client_assertion)).jti,
    )
    expect(new Set(jtis).size).toBe(500)
    expect(requestsTo(sandbox, sandbox.endpoints.discovery)).toHaveLength(1)
    console.info(`500 concurrent ES384 backend token requests: ${Math.round(elapsed)} ms`)
  }, 90_000)
})
