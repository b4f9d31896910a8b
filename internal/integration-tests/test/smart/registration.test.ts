/**
 * RFC 7591 dynamic registration end to end: a `Client` built from the FHIR base URL alone
 * registers at the discovered endpoint with the initial access token, and a new `Client` with
 * the returned `client_id` (and secret or key) completes a flow.
 */
import { randomUUID } from 'node:crypto'
import { Client, ConfigurationError, RegistrationError } from '@fhir-auth/client'
import { generateClientKeys, sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectBasicAuthentication } from './support/assertions.js'
import {
  authorizeWithClient,
  discoveryRequestCount,
  lastRequestTo,
  readPatientStatus,
  rejectionOf,
  requestsTo,
} from './support/flows.js'
import { type SmartFixture, standaloneScopes, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

function baseOnlyClient(): Client {
  return new Client({ baseUrl: fixture.sandbox.fhirBaseUrl, allowInsecureLocalhost: true })
}

function initialAccessAuthorization(): string {
  return `Bearer ${fixture.sandbox.initialAccessToken}`
}

describe('dynamic client registration', () => {
  it('registers a client_secret_basic app at the discovered endpoint and completes a code flow with it', async () => {
    const { sandbox } = fixture
    const registration = await baseOnlyClient().registerClient(
      {
        client_name: 'Registered symmetric app',
        redirect_uris: [sandboxDefaultRedirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { authorization: initialAccessAuthorization() },
    )
    expect(typeof registration.client_id).toBe('string')
    expect(typeof registration.client_secret).toBe('string')
    expect(registration.token_endpoint_auth_method).toBe('client_secret_basic')

    const registrationRequest = lastRequestTo(sandbox, sandbox.endpoints.registration)
    expect(registrationRequest.method).toBe('POST')
    expect(registrationRequest.headers['content-type']).toMatch(/^application\/json/)
    expect(registrationRequest.headers.authorization === initialAccessAuthorization()).toBe(true)
    expect(registrationRequest.json).toMatchObject({ client_name: 'Registered symmetric app' })

    const clientSecret = String(registration.client_secret)
    const client = new Client(
      {
        baseUrl: sandbox.fhirBaseUrl,
        clientId: registration.client_id,
        clientSecret,
        redirectUri: sandboxDefaultRedirectUri,
        scopes: standaloneScopes,
        allowInsecureLocalhost: true,
      },
      { clientType: 'confidential_symmetric' },
    )
    const authorization = await authorizeWithClient(client, sandbox, { method: 'post' })
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expectBasicAuthentication(
      lastRequestTo(sandbox, sandbox.endpoints.token),
      registration.client_id,
      clientSecret,
    )
    expect(client.isTokenResponseValid(tokens)).toBe(true)
    expect(await readPatientStatus(sandbox, String(tokens.patient), tokens.access_token)).toBe(200)
  })

  it.each(['RS384', 'ES384'] as const)(
    'registers a private_key_jwt backend client (%s) and gets a backend token with it',
    async (algorithm) => {
      const { sandbox } = fixture
      const keys = await generateClientKeys(algorithm)
      const registration = await baseOnlyClient().registerClient(
        {
          client_name: `Registered ${algorithm} backend`,
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
          scope: 'system/*.rs',
        },
        { authorization: initialAccessAuthorization() },
      )
      expect(typeof registration.client_id).toBe('string')
      expect(registration.client_secret).toBeUndefined()
      expect(registration.jwks).toMatchObject({ keys: [{ kid: keys.kid }] })

      const client = new Client(
        {
          baseUrl: sandbox.fhirBaseUrl,
          clientId: registration.client_id,
          privateKey: keys.privateKeyPem,
          kid: keys.kid,
          scopes: ['system/*.rs'],
          allowInsecureLocalhost: true,
        },
        { clientType: 'confidential_asymmetric' },
      )
      const tokens = await client.requestBackendToken()
      expect(tokens.scope).toBe('system/*.rs')
      expect(client.isTokenResponseValid(tokens, { flow: 'backend_services' })).toBe(true)
      expect(await readPatientStatus(sandbox, 'patient-1', tokens.access_token)).toBe(200)
    },
  )

  it('fails with RegistrationError 401 invalid_token without the initial access token', async () => {
    const { sandbox } = fixture
    const error = await rejectionOf(
      baseOnlyClient().registerClient({
        client_name: 'No initial access token',
        redirect_uris: [sandboxDefaultRedirectUri],
        token_endpoint_auth_method: 'none',
      }),
    )
    expect(error).toBeInstanceOf(RegistrationError)
    expect(error).toMatchObject({ code: 'ERR_REGISTRATION', status: 401, error: 'invalid_token' })
    expect(
      lastRequestTo(sandbox, sandbox.endpoints.registration).headers.authorization,
    ).toBeUndefined()
  })

  it('fails with RegistrationError for a wrong initial access token', async () => {
    const error = await rejectionOf(
      baseOnlyClient().registerClient(
        { redirect_uris: [sandboxDefaultRedirectUri], token_endpoint_auth_method: 'none' },
        { authorization: `Bearer ${randomUUID()}` },
      ),
    )
    expect(error).toBeInstanceOf(RegistrationError)
    expect(error).toMatchObject({ status: 401, error: 'invalid_token' })
  })

  it('fails with RegistrationError invalid_client_metadata for metadata the server refuses', async () => {
    const error = await rejectionOf(
      baseOnlyClient().registerClient(
        {
          redirect_uris: [sandboxDefaultRedirectUri],
          token_endpoint_auth_method: 'client_secret_post',
        },
        { authorization: initialAccessAuthorization() },
      ),
    )
    expect(error).toBeInstanceOf(RegistrationError)
    expect(error).toMatchObject({ status: 400, error: 'invalid_client_metadata' })
  })

  it('uses an explicit registrationEndpoint without any discovery', async () => {
    const { sandbox } = fixture
    const discoveriesBefore = discoveryRequestCount(sandbox)
    const client = new Client({ allowInsecureLocalhost: true })
    const registration = await client.registerClient(
      {
        client_name: 'Explicit endpoint',
        redirect_uris: [sandboxDefaultRedirectUri],
        token_endpoint_auth_method: 'none',
      },
      {
        registrationEndpoint: sandbox.endpoints.registration,
        authorization: initialAccessAuthorization(),
      },
    )
    expect(typeof registration.client_id).toBe('string')
    expect(discoveryRequestCount(sandbox)).toBe(discoveriesBefore)

    const publicClient = new Client({
      baseUrl: sandbox.fhirBaseUrl,
      clientId: registration.client_id,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: ['launch/patient', 'patient/*.rs'],
      allowInsecureLocalhost: true,
    })
    const authorization = await authorizeWithClient(publicClient, sandbox)
    const tokens = await publicClient.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expect(lastRequestTo(sandbox, sandbox.endpoints.token).form?.client_id).toBe(
      registration.client_id,
    )
    expect(typeof tokens.access_token).toBe('string')
  })

  it('refuses a plain-HTTP registration endpoint that is not loopback before any request', async () => {
    const { sandbox } = fixture
    const registrationsBefore = requestsTo(sandbox, sandbox.endpoints.registration).length
    const error = await rejectionOf(
      baseOnlyClient().registerClient(
        { redirect_uris: [sandboxDefaultRedirectUri] },
        {
          registrationEndpoint: 'http://fhir.example.org/register',
          authorization: initialAccessAuthorization(),
        },
      ),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'registrationEndpoint' })
    expect(requestsTo(sandbox, sandbox.endpoints.registration)).toHaveLength(registrationsBefore)
  })
})
