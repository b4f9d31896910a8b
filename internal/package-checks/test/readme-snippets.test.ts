/**
 * Runs the code that the package READMEs show (test/readme-snippets/*.ts, kept identical to the
 * README blocks by readme-sync.test.ts) against a scripted `fetch`, so a README example that
 * stops compiling or stops working fails CI.
 */

import { generateKeyPairSync, sign } from 'node:crypto'
import {
  ConfigurationError,
  computeCodeChallenge,
  DiscoveryError,
  HttpError,
  type Logger,
  silentLogger,
  TokenError,
} from '@fhir-auth/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { backendToken, createBackendClient } from './readme-snippets/client-backend-services.js'
import {
  createEhrClient,
  finishLaunch,
  readPatient,
  resumeLater,
  startLaunch,
} from './readme-snippets/client-ehr-launch.js'
import {
  clientAssertion,
  describeFailure,
  kmsSigner,
} from './readme-snippets/core-custom-signer.js'
import {
  onCallback,
  readPatient as readPatientOfRootReadme,
  signIn,
} from './readme-snippets/root-using-it.js'
import {
  beginAuthorization,
  completeAuthorization,
  refresh,
} from './readme-snippets/smart-app-launch.js'
import { backendServicesToken } from './readme-snippets/smart-backend-services.js'
import { registerApp } from './readme-snippets/smart-registration.js'
import {
  decodeJws,
  nonExtractableP384,
  p384PemKeyPair,
  verifiesWithCryptoKey,
  verifiesWithPem,
  webCryptoSigner,
} from './support/keys.js'
import { jsonResponse, type RecordedRequest, scriptedFetch } from './support/scripted-fetch.js'

function form(request: RecordedRequest): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(request.body))
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = []
  return {
    warnings,
    info: () => {},
    warn: (message) => {
      warnings.push(message)
    },
    error: () => {},
  }
}

const ehrConfiguration = {
  authorization_endpoint: 'https://ehr.example.org/auth/authorize',
  token_endpoint: 'https://ehr.example.org/auth/token',
  grant_types_supported: ['authorization_code', 'client_credentials'],
  code_challenge_methods_supported: ['S256'],
  capabilities: ['launch-ehr', 'client-public', 'client-confidential-asymmetric'],
  token_endpoint_auth_methods_supported: ['private_key_jwt'],
  token_endpoint_auth_signing_alg_values_supported: ['ES384', 'RS384'],
}
const ehrDiscoveryUrl = 'https://ehr.example.org/fhir/.well-known/smart-configuration'

/** The EHR's OpenID side: its issuer, an RS256 key it publishes, and ID tokens it signs. */
function ehrIdentity() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'ehr-key-1', use: 'sig', alg: 'RS256' }
  const base64Url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const idToken = (nonce: string) => {
    const now = Math.floor(Date.now() / 1000)
    const input = `${base64Url({ alg: 'RS256', kid: 'ehr-key-1', typ: 'JWT' })}.${base64Url({
      iss: 'https://ehr.example.org',
      sub: 'practitioner-9',
      aud: 'my-app',
      iat: now,
      exp: now + 300,
      nonce,
      fhirUser: 'https://ehr.example.org/fhir/Practitioner/practitioner-9',
    })}`
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`
  }
  return { jwks: { keys: [jwk] }, idToken }
}

const openIdConfiguration = {
  ...ehrConfiguration,
  issuer: 'https://ehr.example.org',
  jwks_uri: 'https://ehr.example.org/auth/jwks',
}
/**
 * The issuer's own openid-configuration: the same endpoints, so the issuer, which is not the FHIR
 * base URL, is bound to the server (ADR 0013). Read once, with the first ID token.
 */
const ehrOpenIdProvider = {
  issuer: openIdConfiguration.issuer,
  authorization_endpoint: ehrConfiguration.authorization_endpoint,
  token_endpoint: ehrConfiguration.token_endpoint,
  jwks_uri: openIdConfiguration.jwks_uri,
}

describe('README of @fhir-auth/client: EHR launch', () => {
  it('keeps the launch, completes it into a session with a validated ID token, reads FHIR, resumes and refreshes', async () => {
    const identity = ehrIdentity()
    let nonce = ''
    const server = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse(openIdConfiguration) },
      {
        method: 'POST',
        url: ehrConfiguration.token_endpoint,
        respond: () =>
          jsonResponse({
            access_token: 'first-access',
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'launch openid fhirUser patient/*.rs offline_access',
            refresh_token: 'first-refresh',
            id_token: identity.idToken(nonce),
            patient: 'patient-123',
          }),
      },
      {
        method: 'GET',
        url: 'https://ehr.example.org/.well-known/openid-configuration',
        respond: () => jsonResponse(ehrOpenIdProvider),
      },
      {
        method: 'GET',
        url: openIdConfiguration.jwks_uri,
        respond: () => jsonResponse(identity.jwks),
      },
      {
        method: 'GET',
        url: 'https://ehr.example.org/fhir/Patient/patient-123',
        respond: (request) =>
          request.headers.get('authorization') === 'Bearer first-access'
            ? jsonResponse({ resourceType: 'Patient', id: 'patient-123' })
            : jsonResponse({ resourceType: 'OperationOutcome' }, 401),
      },
    ])
    const client = createEhrClient({ fetch: server.fetch })

    const { redirectTo, state } = await startLaunch(client, 'launch-abc')
    const authorization = new URL(redirectTo)
    nonce = authorization.searchParams.get('nonce') ?? ''
    expect(`${authorization.origin}${authorization.pathname}`).toBe(
      ehrConfiguration.authorization_endpoint,
    )
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'my-app',
      redirect_uri: 'https://app.example.org/callback',
      launch: 'launch-abc',
      aud: 'https://ehr.example.org/fhir',
      state,
      code_challenge_method: 'S256',
    })
    expect(nonce.length).toBeGreaterThanOrEqual(22)

    const session = await finishLaunch(
      client,
      `https://app.example.org/callback?code=code-1&state=${state}`,
    )
    expect(session.tokens.patient).toBe('patient-123')
    expect(session.tokens.fhirUser).toBe('https://ehr.example.org/fhir/Practitioner/practitioner-9')
    expect(session.tokens.idTokenClaims?.nonce).toBe(nonce)
    const exchange = form(server.requests[1] as RecordedRequest)
    expect(exchange).toMatchObject({ grant_type: 'authorization_code', code: 'code-1' })
    expect(await computeCodeChallenge(exchange.code_verifier ?? '')).toBe(
      authorization.searchParams.get('code_challenge'),
    )
    expect(await readPatient(session)).toMatchObject({ id: 'patient-123' })
    server.assertAllUsed()

    // An hour later, in another process: resumed from what was saved, refreshed, saved again.
    const later = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse(openIdConfiguration) },
      {
        method: 'POST',
        url: ehrConfiguration.token_endpoint,
        respond: () =>
          jsonResponse({
            access_token: 'second-access',
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: 'second-refresh',
          }),
      },
      {
        method: 'GET',
        url: 'https://ehr.example.org/fhir/Patient/patient-123',
        respond: () => jsonResponse({ resourceType: 'Patient', id: 'patient-123' }),
      },
    ])
    const saved: string[] = []
    const resumed = resumeLater(
      createEhrClient({ fetch: later.fetch, now: () => new Date(Date.now() + 3600_000) }),
      session.tokens.serialize(),
      async (serialized) => {
        saved.push(serialized)
      },
    )
    expect(await readPatient(resumed)).toMatchObject({ id: 'patient-123' })
    expect(form(later.requests[1] as RecordedRequest)).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'first-refresh',
    })
    expect(later.requests[2]?.headers.get('authorization')).toBe('Bearer second-access')
    expect(saved).toHaveLength(1)
    expect(JSON.parse(saved[0] ?? '{}').raw.refresh_token).toBe('second-refresh')
    later.assertAllUsed()
  })

  it('refuses a callback whose state was never kept, before any token request', async () => {
    const server = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse(openIdConfiguration) },
    ])
    const client = createEhrClient({ fetch: server.fetch })
    await startLaunch(client, 'launch-abc')
    await expect(
      finishLaunch(client, 'https://app.example.org/callback?code=c&state=forged'),
    ).rejects.toMatchObject({ name: 'AuthorizationError', error: 'state_mismatch' })
    expect(server.requests).toHaveLength(1)
    server.assertAllUsed()
  })
})

describe('root README: Using it', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('signs in, completes the callback into a session and reads the patient with it', async () => {
    const identity = ehrIdentity()
    let nonce = ''
    const server = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse(openIdConfiguration) },
      {
        method: 'POST',
        url: ehrConfiguration.token_endpoint,
        respond: () =>
          jsonResponse({
            access_token: 'root-access',
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'launch/patient patient/*.rs openid fhirUser offline_access',
            id_token: identity.idToken(nonce),
            patient: 'patient-7',
          }),
      },
      {
        method: 'GET',
        url: 'https://ehr.example.org/.well-known/openid-configuration',
        respond: () => jsonResponse(ehrOpenIdProvider),
      },
      {
        method: 'GET',
        url: openIdConfiguration.jwks_uri,
        respond: () => jsonResponse(identity.jwks),
      },
      {
        method: 'GET',
        url: 'https://ehr.example.org/fhir/Patient/patient-7',
        respond: (request) =>
          jsonResponse({
            resourceType: 'Patient',
            authorization: request.headers.get('authorization'),
          }),
      },
    ])
    // The snippet's client uses the global fetch, as an app would.
    vi.stubGlobal('fetch', server.fetch)
    const authUrl = new URL(await signIn())
    nonce = authUrl.searchParams.get('nonce') ?? ''
    const state = authUrl.searchParams.get('state') ?? ''
    const session = await onCallback(`https://app.example.org/callback?code=c-7&state=${state}`)
    expect(session.tokens.idTokenClaims?.sub).toBe('practitioner-9')
    const response = await readPatientOfRootReadme(session)
    expect(await response.json()).toMatchObject({ authorization: 'Bearer root-access' })
    server.assertAllUsed()
  })
})

describe('README of @fhir-auth/client: Backend Services', () => {
  it('signs the client assertion with the configured key and kid', async () => {
    const keys = p384PemKeyPair()
    const server = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse(ehrConfiguration) },
      {
        method: 'POST',
        url: ehrConfiguration.token_endpoint,
        respond: () =>
          jsonResponse({
            access_token: 'service-access',
            token_type: 'bearer',
            expires_in: 300,
            scope: 'system/Patient.rs system/Observation.rs',
          }),
      },
    ])
    const token = await backendToken(createBackendClient(keys.privateKey, { fetch: server.fetch }))
    expect(token?.access_token).toBe('service-access')

    const sent = form(server.requests[1] as RecordedRequest)
    expect(sent).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs system/Observation.rs',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    })
    const assertion = sent.client_assertion as string
    expect(decodeJws(assertion).header).toMatchObject({ alg: 'ES384', kid: 'backend-key-2026' })
    expect(decodeJws(assertion).claims).toMatchObject({
      iss: 'my-backend-service',
      sub: 'my-backend-service',
      aud: ehrConfiguration.token_endpoint,
    })
    expect(verifiesWithPem(assertion, keys.publicKey)).toBe(true)
    server.assertAllUsed()
  })

  it('returns undefined when the server refuses, and rethrows other failures', async () => {
    const keys = p384PemKeyPair()
    const refusing = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse(ehrConfiguration) },
      {
        method: 'POST',
        url: ehrConfiguration.token_endpoint,
        respond: () => jsonResponse({ error: 'invalid_client' }, 401),
      },
    ])
    await expect(
      backendToken(createBackendClient(keys.privateKey, { fetch: refusing.fetch })),
    ).resolves.toBeUndefined()
    refusing.assertAllUsed()

    const unreachable = scriptedFetch([
      { method: 'GET', url: ehrDiscoveryUrl, respond: () => jsonResponse({ error: 'x' }, 503) },
    ])
    const quiet = { fetch: unreachable.fetch, logger: silentLogger }
    await expect(backendToken(createBackendClient(keys.privateKey, quiet))).rejects.toBeInstanceOf(
      DiscoveryError,
    )
  })
})

describe('README of @fhir-auth/core', () => {
  it('signs a client assertion through a signer whose key cannot leave its store', async () => {
    const keys = await nonExtractableP384()
    const signer = kmsSigner('kms-key-1', webCryptoSigner(keys.privateKey, 'unused').sign)
    const before = Math.floor(Date.now() / 1000)
    const assertion = await clientAssertion(signer, 'my-client', 'https://auth.example.org/token')

    const { header, claims } = decodeJws(assertion)
    expect(header).toEqual({ typ: 'JWT', kid: 'kms-key-1', alg: 'ES384' })
    expect(claims).toMatchObject({
      iss: 'my-client',
      sub: 'my-client',
      aud: 'https://auth.example.org/token',
    })
    expect(claims.exp).toBeGreaterThanOrEqual(before + 300)
    expect(claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 300)
    expect(claims.jti).toMatch(/^[A-Za-z0-9_-]{16,}$/)
    expect(await verifiesWithCryptoKey(assertion, keys.publicKey)).toBe(true)
  })

  it('describes each kind of failure by its code', () => {
    const configuration = new ConfigurationError({ invalidAttribute: 'clientId' })
    const transport = new HttpError({ message: 'timed out', reason: 'timeout', url: 'https://x' })
    const token = new TokenError({ message: 'token request refused', status: 400 })
    expect(describeFailure(configuration)).toBe('fix the configuration: clientId is required')
    expect(describeFailure(transport)).toBe(
      'the server could not be reached or understood: timed out',
    )
    expect(describeFailure(token)).toBe('TokenError (ERR_TOKEN): token request refused')
    expect(describeFailure(new Error('boom'))).toBe('unexpected failure')
  })
})

describe('README of @fhir-auth/smart', () => {
  const smartDiscoveryUrl = 'https://fhir.example.org/r4/.well-known/smart-configuration'
  const smartConfiguration = {
    authorization_endpoint: 'https://fhir.example.org/auth/authorize',
    token_endpoint: 'https://fhir.example.org/auth/token',
    capabilities: ['launch-ehr', 'client-public'],
    code_challenge_methods_supported: ['S256'],
  }

  it('runs discovery, the authorization request, the code exchange and a refresh', async () => {
    const server = scriptedFetch([
      { method: 'GET', url: smartDiscoveryUrl, respond: () => jsonResponse(smartConfiguration) },
      {
        method: 'POST',
        url: smartConfiguration.token_endpoint,
        respond: () =>
          jsonResponse({ access_token: 'a1', token_type: 'Bearer', refresh_token: 'r1' }),
      },
      {
        method: 'POST',
        url: smartConfiguration.token_endpoint,
        respond: () => jsonResponse({ access_token: 'a2', token_type: 'Bearer' }),
      },
    ])
    const transport = { fetch: server.fetch }
    const session = await beginAuthorization('launch-xyz', transport)
    expect(session.tokenEndpoint).toBe(smartConfiguration.token_endpoint)
    const authorization = new URL(session.authUrl)
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      launch: 'launch-xyz',
      aud: 'https://fhir.example.org/r4',
      state: session.state,
      code_challenge: await computeCodeChallenge(session.codeVerifier),
    })

    const tokens = await completeAuthorization(session, 'code-9', transport)
    expect(tokens.access_token).toBe('a1')
    expect(form(server.requests[1] as RecordedRequest)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'code-9',
      code_verifier: session.codeVerifier,
      redirect_uri: 'https://app.example.org/callback',
      client_id: 'my-app',
    })

    const refreshed = await refresh(session.tokenEndpoint, 'r1', transport)
    expect(refreshed.access_token).toBe('a2')
    expect(refreshed.refresh_token).toBe('r1')
    server.assertAllUsed()
  })

  it('rejects a discovered authorization endpoint that is not HTTPS', async () => {
    const server = scriptedFetch([
      {
        method: 'GET',
        url: smartDiscoveryUrl,
        respond: () =>
          jsonResponse({ ...smartConfiguration, authorization_endpoint: 'http://evil.example' }),
      },
    ])
    await expect(beginAuthorization('l', { fetch: server.fetch })).rejects.toBeInstanceOf(
      DiscoveryError,
    )
  })

  it('requests a Backend Services token with only the signed assertion', async () => {
    const keys = await nonExtractableP384()
    const logger = recordingLogger()
    const server = scriptedFetch([
      {
        method: 'POST',
        url: 'https://fhir.example.org/auth/token',
        respond: () =>
          jsonResponse({
            access_token: 'svc',
            token_type: 'bearer',
            expires_in: 300,
            scope: 'system/Patient.rs system/Observation.rs',
          }),
      },
    ])
    const token = await backendServicesToken(webCryptoSigner(keys.privateKey, 'svc-key'), logger, {
      fetch: server.fetch,
    })
    expect(token.access_token).toBe('svc')
    expect(logger.warnings).toEqual([])
    const request = server.requests[0] as RecordedRequest
    const sent = form(request)
    expect(Object.keys(sent).sort()).toEqual([
      'client_assertion',
      'client_assertion_type',
      'grant_type',
      'scope',
    ])
    expect(request.headers.get('authorization')).toBeNull()
    expect(await verifiesWithCryptoKey(sent.client_assertion as string, keys.publicKey)).toBe(true)
  })

  it('warns through the logger when a backend token response lacks expires_in', async () => {
    const keys = await nonExtractableP384()
    const logger = recordingLogger()
    const server = scriptedFetch([
      {
        method: 'POST',
        url: 'https://fhir.example.org/auth/token',
        respond: () => jsonResponse({ access_token: 'svc', token_type: 'bearer', scope: 's' }),
      },
    ])
    await backendServicesToken(webCryptoSigner(keys.privateKey, 'k'), logger, {
      fetch: server.fetch,
    })
    expect(logger.warnings).toHaveLength(1)
    expect(logger.warnings[0]).toContain('expires_in')
  })

  it('registers a client with its initial access token', async () => {
    const server = scriptedFetch([
      {
        method: 'POST',
        url: 'https://fhir.example.org/auth/register',
        respond: () => jsonResponse({ client_id: 'new-client', client_secret: 's3cret' }, 201),
      },
    ])
    const registered = await registerApp('https://fhir.example.org/auth/register', 'iat-1', {
      fetch: server.fetch,
    })
    expect(registered).toEqual({ clientId: 'new-client', clientSecret: 's3cret' })
    const request = server.requests[0] as RecordedRequest
    expect(request.headers.get('authorization')).toBe('Bearer iat-1')
    expect(JSON.parse(request.body)).toMatchObject({
      client_name: 'My App',
      redirect_uris: ['https://app.example.org/callback'],
    })
  })

  it('refuses a plain-HTTP registration endpoint before any request', async () => {
    const server = scriptedFetch([])
    await expect(
      registerApp('http://fhir.example.org/auth/register', 'iat-1', { fetch: server.fetch }),
    ).rejects.toBeInstanceOf(ConfigurationError)
    expect(server.requests).toHaveLength(0)
  })
})
