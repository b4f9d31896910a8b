/**
 * The unregistered-client flow: a `Client` without a `client_id` asks for a client_credentials
 * token as the client URI its certificate names (udap.org JWT client auth §8; the sandbox
 * accepts it with `allowUnregisteredClients`).
 */
import { ConfigurationError, type TokenResponse } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inspectJws, verifiesWithFirstX5c } from './support/jws-inspection.js'
import { clientAssertionOf, countsOf, requestsTo } from './support/sandbox-requests.js'
import {
  b2bContext,
  createUdapClient,
  defaultClientUri,
  expectedB2bExtension,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

const otherClientUri = 'https://other-client.example.test/app'

let sandbox: UdapSandbox
let trust: TrustInputs
let certificate: IssuedCertificate

beforeAll(async () => {
  sandbox = await startUdapSandbox({ allowUnregisteredClients: true })
  trust = trustInputsOf(sandbox.trust)
  certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Unregistered client',
    sanUris: [defaultClientUri],
    keyType: 'p256',
  })
})
afterAll(() => sandbox.close())

describe('a client without client_id, identified by its certificate', () => {
  let token: TokenResponse
  let since: number

  beforeAll(async () => {
    since = sandbox.requests.length
    const client = createUdapClient(sandbox, identityOf(certificate))
    expect(client.config.clientId).toBeUndefined()
    token = await client.requestBackendToken({
      clientUri: defaultClientUri,
      b2b: b2bContext,
      ...trust,
    })
  })

  it('gets a token without ever registering', () => {
    expect(token.token_type).toBe('Bearer')
    expect(requestsTo(sandbox, '/register', since)).toEqual([])
    expect(requestsTo(sandbox, '/token', since)).toHaveLength(1)
    expect(sandbox.accessTokens.at(-1)).toMatchObject({
      accessToken: token.access_token,
      clientId: defaultClientUri,
      unregistered: true,
      b2b: expectedB2bExtension,
    })
  })

  it('sends an AnT with iss = sub = the client URI and the token endpoint as aud', () => {
    const [request] = requestsTo(sandbox, '/token', since)
    if (request === undefined) throw new Error('no token request was made')
    const assertion = clientAssertionOf(request)
    const { claims } = inspectJws(assertion)
    expect(claims.iss).toBe(defaultClientUri)
    expect(claims.sub).toBe(defaultClientUri)
    expect(claims.aud).toBe(sandbox.endpoints.token)
    expect(claims.extensions).toEqual({ 'hl7-b2b': expectedB2bExtension })
    expect(verifiesWithFirstX5c(assertion)).toBe(true)
  })
})

describe('a client URI that is not a SAN of the leaf', () => {
  let error: ConfigurationError
  let before: ReturnType<typeof countsOf>
  let after: ReturnType<typeof countsOf>

  beforeAll(async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    before = countsOf(sandbox)
    error = await failureOf(
      client.requestBackendToken({ clientUri: otherClientUri, b2b: b2bContext, ...trust }),
      ConfigurationError,
    )
    after = countsOf(sandbox)
  })

  it('is refused with a ConfigurationError naming clientUri and the SANs', () => {
    expect(error.invalidAttribute).toBe('clientUri')
    expect(error.message).toContain(otherClientUri)
    expect(error.message).toContain(defaultClientUri)
    expect(after.token).toBe(before.token)
  })

  it('is refused before any request, discovery included (the certificate is local)', () => {
    expect(after).toEqual(before)
  })
})

describe('backendTokens in the unregistered flow (DESIGN §9 with the UDAP inputs of §2)', () => {
  it('concurrent callers share one token asked for as the client URI; later calls reuse it', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const since = sandbox.requests.length
    const tokens = client.backendTokens({ clientUri: defaultClientUri, b2b: b2bContext, ...trust })
    const got = await Promise.all(Array.from({ length: 10 }, () => tokens.accessToken()))
    expect(new Set(got).size).toBe(1)
    expect(await tokens.accessToken()).toBe(got[0])
    const tokenRequests = requestsTo(sandbox, '/token', since)
    expect(tokenRequests).toHaveLength(1)
    const [request] = tokenRequests
    if (request === undefined) throw new Error('no token request was made')
    expect(inspectJws(clientAssertionOf(request)).claims.iss).toBe(defaultClientUri)
    expect(sandbox.accessTokens.at(-1)).toMatchObject({
      accessToken: got[0],
      clientId: defaultClientUri,
      unregistered: true,
    })
  })
})
