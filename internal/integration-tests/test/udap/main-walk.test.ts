/**
 * Issue 5, end to end: a `Client` with `protocol: 'udap'` registers, modifies its registration,
 * gets a client_credentials token with an `hl7-b2b` authentication token and cancels, against
 * the strict UDAP sandbox over real HTTP on 127.0.0.1 — once with the default crypto backend
 * (crypto-node) and once with crypto-webcrypto. The walk runs once per backend; each test then
 * checks one rule against what the client returned and what the server received.
 */
import {
  type Client,
  ConfigurationError,
  type CryptoBackend,
  type RegistrationResponse,
  TokenError,
  type TokenResponse,
} from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { type RecordedRequest, startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { type CapturingLogger, createCapturingLogger, SecretScanner } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inspectJws, standardBase64, verifiesWithFirstX5c } from './support/jws-inspection.js'
import { createRecordingFetch, type RecordingFetch } from './support/recording-fetch.js'
import {
  clientAssertionOf,
  countsOf,
  registrationBody,
  requestsTo,
  softwareStatementOf,
} from './support/sandbox-requests.js'
import {
  b2bContext,
  cancellationMetadata,
  clientCredentialsRegistration,
  createUdapClient,
  expectedB2bExtension,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

const backends: ReadonlyArray<{
  readonly name: string
  readonly crypto: CryptoBackend | undefined
  readonly clientUri: string
}> = [
  {
    name: 'the default backend (crypto-node)',
    crypto: undefined,
    clientUri: 'https://client.example.test/walk-node',
  },
  {
    name: 'crypto-webcrypto',
    crypto: createWebCryptoBackend(),
    clientUri: 'https://client.example.test/walk-webcrypto',
  },
]

const modifiedRegistration = {
  ...clientCredentialsRegistration,
  client_name: 'fhir-auth integration test client (renamed)',
  scope: 'system/*.rs system/*.read',
}

let sandbox: UdapSandbox
let trust: TrustInputs

beforeAll(async () => {
  sandbox = await startUdapSandbox()
  trust = trustInputsOf(sandbox.trust)
})
afterAll(() => sandbox.close())

/** Everything one walk produced, for the tests to check. */
interface Walk {
  readonly certificate: IssuedCertificate
  readonly client: Client
  readonly logger: CapturingLogger
  readonly recording: RecordingFetch
  readonly registered: RegistrationResponse
  readonly modified: RegistrationResponse
  readonly token: TokenResponse
  readonly cancelled: RegistrationResponse
  readonly registrationRequests: readonly RecordedRequest[]
  readonly tokenRequests: readonly RecordedRequest[]
  /** The walking client's token request after its cancellation. */
  readonly tokenAfterCancelByWalker: unknown
  readonly countsBeforeWalkerRetry: ReturnType<typeof countsOf>
  readonly countsAfterWalkerRetry: ReturnType<typeof countsOf>
  /** A client configured with the stored (now cancelled) client_id, asking for a token. */
  readonly tokenAfterCancelWithStoredId: unknown
}

describe.each(backends)('the UDAP walk through Client with $name', ({ crypto, clientUri }) => {
  let walk: Walk

  beforeAll(async () => {
    const certificate = await sandbox.certificateAuthority.issue({
      commonName: 'Walk client',
      sanUris: [clientUri],
      keyType: 'p256',
    })
    const since = sandbox.requests.length
    const logger = createCapturingLogger()
    const recording = createRecordingFetch()
    const options = { logger, fetch: recording.fetch, ...(crypto === undefined ? {} : { crypto }) }
    const client = createUdapClient(sandbox, identityOf(certificate), options)
    const registered = await client.registerClient(clientCredentialsRegistration, {
      clientUri,
      ...trust,
    })
    const modified = await client.registerClient(modifiedRegistration, { clientUri, ...trust })
    const token = await client.requestBackendToken({ b2b: b2bContext })
    const cancelled = await client.cancelRegistration(cancellationMetadata, {
      clientUri,
      ...trust,
    })
    const countsBeforeWalkerRetry = countsOf(sandbox)
    const tokenAfterCancelByWalker = await client
      .requestBackendToken({ b2b: b2bContext })
      .catch((error: unknown) => error)
    const countsAfterWalkerRetry = countsOf(sandbox)
    const storedIdClient = createUdapClient(sandbox, identityOf(certificate), options, {
      clientId: registered.client_id,
    })
    const tokenAfterCancelWithStoredId = await storedIdClient
      .requestBackendToken({ b2b: b2bContext, ...trust })
      .catch((error: unknown) => error)
    walk = {
      certificate,
      client,
      logger,
      recording,
      registered,
      modified,
      token,
      cancelled,
      registrationRequests: requestsTo(sandbox, '/register', since),
      tokenRequests: requestsTo(sandbox, '/token', since),
      tokenAfterCancelByWalker,
      countsBeforeWalkerRetry,
      countsAfterWalkerRetry,
      tokenAfterCancelWithStoredId,
    }
  })

  function registrationRequest(index: number): RecordedRequest {
    const request = walk.registrationRequests[index]
    if (request === undefined) throw new Error(`registration request ${index} was not made`)
    return request
  }

  function firstTokenRequest(): RecordedRequest {
    const request = walk.tokenRequests[0]
    if (request === undefined) throw new Error('no token request was made')
    return request
  }

  it('registers: the server answers 201 with a new client_id bound to the client URI', () => {
    const statuses = walk.recording.exchanges
      .filter((exchange) => exchange.url === sandbox.endpoints.registration)
      .map((exchange) => exchange.status)
    expect(statuses[0]).toBe(201)
    expect(walk.registered.client_id).toMatch(/\S/)
    expect(sandbox.registrations.get(walk.registered.client_id)?.clientUri).toBe(clientUri)
  })

  it('modifies: registering again with changed metadata answers 200 with the same client_id', () => {
    const statuses = walk.recording.exchanges
      .filter((exchange) => exchange.url === sandbox.endpoints.registration)
      .map((exchange) => exchange.status)
    expect(statuses[1]).toBe(200)
    expect(walk.modified.client_id).toBe(walk.registered.client_id)
    expect(walk.modified.client_name).toBe(modifiedRegistration.client_name)
    const stored = sandbox.registrations.get(walk.registered.client_id)
    expect(stored?.metadata.client_name).toBe(modifiedRegistration.client_name)
    expect(stored?.metadata.scope).toBe(modifiedRegistration.scope)
  })

  it('sends a body of exactly software_statement and udap "1"', () => {
    for (const request of walk.registrationRequests) {
      const body = registrationBody(request)
      expect(Object.keys(body).sort()).toEqual(['software_statement', 'udap'])
      expect(body.udap).toBe('1')
      expect(request.headers['content-type']).toMatch(/^application\/json/)
    }
  })

  it('signs a software statement with header alg + x5c only, leaf first in standard base64', () => {
    const statement = softwareStatementOf(registrationRequest(0))
    const { header } = inspectJws(statement)
    expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
    expect(header.alg).toBe('ES256')
    expect(header.x5c).toEqual(walk.certificate.chainDer.map(standardBase64))
    expect(verifiesWithFirstX5c(statement)).toBe(true)
  })

  it('puts the STU2 claims in the software statement', () => {
    const { claims } = inspectJws(softwareStatementOf(registrationRequest(0)))
    expect(claims.iss).toBe(clientUri)
    expect(claims.sub).toBe(clientUri)
    expect(claims.aud).toBe(sandbox.endpoints.registration)
    expect(typeof claims.iat).toBe('number')
    expect(claims.exp).toBe(Number(claims.iat) + 300)
    expect(claims.jti).toEqual(expect.stringMatching(/^\S{16,}$/))
    expect(claims.client_name).toBe(clientCredentialsRegistration.client_name)
    expect(claims.contacts).toEqual(clientCredentialsRegistration.contacts)
    expect(claims.grant_types).toEqual(['client_credentials'])
    expect(claims.token_endpoint_auth_method).toBe('private_key_jwt')
    expect(claims.scope).toBe(clientCredentialsRegistration.scope)
    expect(claims).not.toHaveProperty('redirect_uris')
    expect(claims).not.toHaveProperty('response_types')
  })

  it('uses a fresh jti in every software statement', () => {
    const jtis = walk.registrationRequests.map(
      (request) => inspectJws(softwareStatementOf(request)).claims.jti,
    )
    expect(jtis).toHaveLength(3)
    expect(new Set(jtis).size).toBe(3)
  })

  it('gets a Bearer token with the client_credentials grant, authenticated by an AnT', () => {
    expect(walk.token.token_type).toBe('Bearer')
    expect(walk.token.access_token).toBe(sandbox.accessTokens.at(-1)?.accessToken)
    const request = firstTokenRequest()
    expect(request.headers.authorization).toBeUndefined()
    expect(request.form).toEqual({
      grant_type: 'client_credentials',
      scope: 'system/*.rs',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: expect.any(String),
      udap: '1',
    })
  })

  it('signs the AnT with header alg + x5c only, the leaf first in standard base64', () => {
    const assertion = clientAssertionOf(firstTokenRequest())
    const { header } = inspectJws(assertion)
    expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
    expect(header.alg).toBe('ES256')
    const x5c = header.x5c as unknown[]
    expect(x5c[0]).toBe(standardBase64(walk.certificate.certificateDer))
    expect(x5c).toEqual(walk.certificate.chainDer.map(standardBase64))
    expect(verifiesWithFirstX5c(assertion)).toBe(true)
  })

  it('puts iss = sub = client_id, aud = token endpoint, a short life, jti and hl7-b2b in the AnT', () => {
    const { claims } = inspectJws(clientAssertionOf(firstTokenRequest()))
    expect(claims.iss).toBe(walk.registered.client_id)
    expect(claims.sub).toBe(walk.registered.client_id)
    expect(claims.aud).toBe(sandbox.endpoints.token)
    const lifetime = Number(claims.exp) - Number(claims.iat)
    expect(lifetime).toBeGreaterThan(0)
    expect(lifetime).toBeLessThanOrEqual(300)
    expect(claims.jti).toEqual(expect.stringMatching(/^\S{16,}$/))
    expect(claims.extensions).toEqual({ 'hl7-b2b': expectedB2bExtension })
    expect(
      sandbox.accessTokens.find((issued) => issued.accessToken === walk.token.access_token),
    ).toMatchObject({
      clientId: walk.registered.client_id,
      unregistered: false,
      b2b: expectedB2bExtension,
    })
  })

  it('cancels: a statement with grant_types [] is confirmed and the server cancels the client', () => {
    expect(walk.cancelled.client_id).toBe(walk.registered.client_id)
    expect(walk.cancelled.grant_types).toEqual([])
    const { claims } = inspectJws(softwareStatementOf(registrationRequest(2)))
    expect(claims.grant_types).toEqual([])
    expect(claims.iss).toBe(clientUri)
    expect(sandbox.registrations.get(walk.registered.client_id)?.cancelled).toBe(true)
  })

  it('forgets the cancelled client_id: its next token request fails before reaching the server', () => {
    expect(walk.tokenAfterCancelByWalker).toBeInstanceOf(ConfigurationError)
    expect((walk.tokenAfterCancelByWalker as ConfigurationError).invalidAttribute).toBe('clientId')
    expect(walk.countsAfterWalkerRetry).toEqual(walk.countsBeforeWalkerRetry)
  })

  it('a token request with the cancelled client_id fails with TokenError invalid_client', () => {
    const error = walk.tokenAfterCancelWithStoredId
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).error).toBe('invalid_client')
    expect((error as TokenError).status).toBe(400)
    expect(walk.tokenRequests).toHaveLength(2)
  })

  it('logs each operation at info level', () => {
    const events = walk.logger.entries.map((entry) => entry.fields?.event)
    expect(events).toEqual(
      expect.arrayContaining([
        'udap.discovery.started',
        'udap.registration',
        'udap.token.client_credentials',
        'udap.cancellation',
      ]),
    )
  })

  it('leaks no key, token, software statement or AnT into logs, errors or the printed client', () => {
    const scanner = new SecretScanner()
      .addPrivateKeyPem('client private key', walk.certificate.privateKeyPem)
      .addSecret('access token', walk.token.access_token)
    for (const request of walk.registrationRequests) {
      scanner.addSecret('software statement', softwareStatementOf(request))
    }
    for (const request of walk.tokenRequests) {
      scanner.addSecret('authentication token', clientAssertionOf(request))
    }
    scanner
      .addLines('log', walk.logger.renderedLines())
      .addError('token after cancel (walker)', walk.tokenAfterCancelByWalker)
      .addError('token after cancel (stored client_id)', walk.tokenAfterCancelWithStoredId)
      .addValue('client', walk.client)
      .addValue('client config', walk.client.config)
    expect(scanner.secretCount).toBeGreaterThan(6)
    expect(walk.logger.entries.length).toBeGreaterThan(0)
    expect(scanner.findings()).toEqual([])
    // The scanner finds what it was given: the empty result above is not vacuous.
    scanner.addText('control', `token ${walk.token.access_token}`)
    expect(scanner.findings()).toEqual([{ secret: 'access token', source: 'control' }])
  })
})
