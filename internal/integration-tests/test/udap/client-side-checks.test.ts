/**
 * What a UDAP client can check on its own, it checks before anything reaches the server: its
 * signing identity (client URI among the leaf's SANs, key matching the leaf, certificates
 * valid now, chain leaf first), its trust inputs, and every STU2 rule of the registration
 * metadata. Each case fails with a typed error and the sandbox sees no request at all — not
 * even discovery.
 */
import {
  CertificateChainError,
  type Client,
  ConfigurationError,
  CryptoError,
} from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countsOf } from './support/sandbox-requests.js'
import {
  b2bContext,
  cancellationMetadata,
  clientCredentialsRegistration,
  createUdapClient,
  defaultClientUri,
  identityOf,
  type SigningIdentity,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

const day = 24 * 60 * 60 * 1000

/** An authorization_code registration that satisfies every STU2 rule. */
const authorizationCodeRegistration = {
  client_name: 'fhir-auth user-facing test client',
  contacts: ['mailto:ops@example.test'],
  grant_types: ['authorization_code', 'refresh_token'],
  scope: 'user/*.rs openid fhirUser',
  redirect_uris: ['https://client.example.test/callback'],
  logo_uri: 'https://client.example.test/logo.png',
}

let sandbox: UdapSandbox
let trust: TrustInputs
let valid: IssuedCertificate
let other: IssuedCertificate
let expired: IssuedCertificate
let notYetValid: IssuedCertificate

beforeAll(async () => {
  sandbox = await startUdapSandbox()
  trust = trustInputsOf(sandbox.trust)
  const issue = (commonName: string, dates: { notBefore?: Date; notAfter?: Date } = {}) =>
    sandbox.certificateAuthority.issue({
      commonName,
      sanUris: [defaultClientUri],
      keyType: 'p256',
      ...dates,
    })
  const now = Date.now()
  ;[valid, other, expired, notYetValid] = await Promise.all([
    issue('Valid client'),
    issue('Another client'),
    issue('Expired client', {
      notBefore: new Date(now - 400 * day),
      notAfter: new Date(now - day),
    }),
    issue('Future client', { notBefore: new Date(now + day), notAfter: new Date(now + 400 * day) }),
  ])
})
afterAll(() => sandbox.close())

/** One check: the identity to configure, the operation, and what the error must say. */
interface ClientSideCase {
  readonly name: string
  readonly identity?: () => Partial<SigningIdentity>
  readonly operation: (client: Client) => Promise<unknown>
  readonly expected:
    | { readonly kind: 'configuration'; readonly attribute: string }
    | { readonly kind: 'crypto'; readonly reason: string }
    | { readonly kind: 'chain'; readonly reason: string; readonly subject: RegExp }
}

const register =
  (metadata: Readonly<Record<string, unknown>>, overrides: Record<string, unknown> = {}) =>
  (client: Client) =>
    client.registerClient(metadata, {
      clientUri: defaultClientUri,
      ...trust,
      ...overrides,
    } as Parameters<Client['cancelRegistration']>[1])

const withoutMember = (metadata: Readonly<Record<string, unknown>>, member: string) =>
  Object.fromEntries(Object.entries(metadata).filter(([name]) => name !== member))

const identityCases: readonly ClientSideCase[] = [
  {
    name: 'a clientUri that is not a SAN of the leaf',
    operation: (client) =>
      client.registerClient(clientCredentialsRegistration, {
        clientUri: 'https://client.example.test/other-app',
        ...trust,
      }),
    expected: { kind: 'configuration', attribute: 'clientUri' },
  },
  {
    name: 'a key that belongs to another certificate',
    identity: () => ({ privateKey: other.privateKeyPem, certificateChain: valid.chainDer }),
    operation: register(clientCredentialsRegistration),
    expected: { kind: 'crypto', reason: 'key-certificate-mismatch' },
  },
  {
    name: 'an expired client certificate',
    identity: () => identityOf(expired),
    operation: register(clientCredentialsRegistration),
    expected: { kind: 'chain', reason: 'expired', subject: /Expired client/ },
  },
  {
    name: 'a client certificate that is not yet valid',
    identity: () => identityOf(notYetValid),
    operation: register(clientCredentialsRegistration),
    expected: { kind: 'chain', reason: 'not-yet-valid', subject: /Future client/ },
  },
  {
    name: 'a chain out of order (leaf, root, intermediate)',
    identity: () => {
      const [leaf, intermediate] = valid.chainDer
      const root = sandbox.trust.anchors[0]
      if (leaf === undefined || intermediate === undefined || root === undefined) {
        throw new Error('the sandbox CA issued an unexpected chain')
      }
      return { privateKey: valid.privateKeyPem, certificateChain: [leaf, root.der, intermediate] }
    },
    operation: register(clientCredentialsRegistration),
    expected: { kind: 'chain', reason: 'order', subject: /Valid client/ },
  },
  {
    name: 'no privateKey',
    identity: () => ({ certificateChain: valid.chainDer }),
    operation: register(clientCredentialsRegistration),
    expected: { kind: 'configuration', attribute: 'privateKey' },
  },
  {
    name: 'no certificateChain',
    identity: () => ({ privateKey: valid.privateKeyPem }),
    operation: register(clientCredentialsRegistration),
    expected: { kind: 'configuration', attribute: 'certificateChain' },
  },
  {
    name: 'no trustedAnchors',
    operation: register(clientCredentialsRegistration, { trustedAnchors: undefined }),
    expected: { kind: 'configuration', attribute: 'trustedAnchors' },
  },
  {
    // crls may be omitted (revocation fetched, issue 30); a value that is no array is refused.
    name: 'crls not an array',
    operation: register(clientCredentialsRegistration, { crls: 'crl' as never }),
    expected: { kind: 'configuration', attribute: 'crls' },
  },
  {
    name: 'a token request with neither client_id nor clientUri',
    operation: (client) => client.requestBackendToken({ b2b: b2bContext, ...trust }),
    expected: { kind: 'configuration', attribute: 'clientId' },
  },
]

const metadataCases: readonly ClientSideCase[] = [
  {
    name: 'no client_name',
    operation: register(withoutMember(clientCredentialsRegistration, 'client_name')),
    expected: { kind: 'configuration', attribute: 'client_name' },
  },
  {
    name: 'contacts without a mailto: URI',
    operation: register({
      ...clientCredentialsRegistration,
      contacts: ['https://client.example.test/support', 'tel:+1-555-0100'],
    }),
    expected: { kind: 'configuration', attribute: 'contacts' },
  },
  {
    name: 'no scope',
    operation: register(withoutMember(clientCredentialsRegistration, 'scope')),
    expected: { kind: 'configuration', attribute: 'scope' },
  },
  {
    name: 'both authorization_code and client_credentials',
    operation: register({
      ...authorizationCodeRegistration,
      grant_types: ['authorization_code', 'client_credentials'],
    }),
    expected: { kind: 'configuration', attribute: 'grant_types' },
  },
  {
    name: 'refresh_token without authorization_code',
    operation: register({
      ...clientCredentialsRegistration,
      grant_types: ['client_credentials', 'refresh_token'],
    }),
    expected: { kind: 'configuration', attribute: 'grant_types' },
  },
  {
    name: 'authorization_code without redirect_uris',
    operation: register(withoutMember(authorizationCodeRegistration, 'redirect_uris')),
    expected: { kind: 'configuration', attribute: 'redirect_uris' },
  },
  {
    name: 'authorization_code with an http (not https) redirect URI',
    operation: register({
      ...authorizationCodeRegistration,
      redirect_uris: ['http://client.example.test/callback'],
    }),
    expected: { kind: 'configuration', attribute: 'redirect_uris' },
  },
  {
    name: 'authorization_code without logo_uri',
    operation: register(withoutMember(authorizationCodeRegistration, 'logo_uri')),
    expected: { kind: 'configuration', attribute: 'logo_uri' },
  },
  {
    name: 'authorization_code with a logo that is not PNG, JPG or GIF',
    operation: register({
      ...authorizationCodeRegistration,
      logo_uri: 'https://client.example.test/logo.svg',
    }),
    expected: { kind: 'configuration', attribute: 'logo_uri' },
  },
  {
    name: 'a reserved claim (iss)',
    operation: register({ ...clientCredentialsRegistration, iss: defaultClientUri }),
    expected: { kind: 'configuration', attribute: 'iss' },
  },
  {
    name: 'a cancellation that names grant_types',
    operation: (client) =>
      client.cancelRegistration(
        { ...cancellationMetadata, grant_types: ['client_credentials'] },
        { clientUri: defaultClientUri, ...trust },
      ),
    expected: { kind: 'configuration', attribute: 'grant_types' },
  },
]

async function expectRefusedLocally(testCase: ClientSideCase): Promise<void> {
  const client = createUdapClient(sandbox, testCase.identity?.() ?? identityOf(valid))
  const before = countsOf(sandbox)
  const { expected } = testCase
  if (expected.kind === 'configuration') {
    const error = await failureOf(testCase.operation(client), ConfigurationError)
    expect(error.invalidAttribute).toBe(expected.attribute)
    expect(error.message).toContain(expected.attribute)
  } else if (expected.kind === 'crypto') {
    const error = await failureOf(testCase.operation(client), CryptoError)
    expect(error.reason).toBe(expected.reason)
  } else {
    const error = await failureOf(testCase.operation(client), CertificateChainError)
    expect(error.reason).toBe(expected.reason)
    expect(error.subject).toMatch(expected.subject)
  }
  expect(countsOf(sandbox)).toEqual(before)
}

describe('the signing identity and trust inputs', () => {
  it.each(identityCases)('refuses $name before any request', expectRefusedLocally)
})

describe('the STU2 rules of registration metadata', () => {
  it('accepts the conformant authorization_code registration (the control case)', async () => {
    const client = createUdapClient(sandbox, identityOf(valid))
    const unsupported = await client
      .registerClient(authorizationCodeRegistration, { clientUri: defaultClientUri, ...trust })
      .catch((error: unknown) => error)
    // The sandbox only offers client_credentials, so it refuses the grant; the client sent it.
    expect(unsupported).toMatchObject({
      name: 'RegistrationError',
      error: 'invalid_client_metadata',
    })
  })

  it.each(metadataCases)('refuses $name before any request', expectRefusedLocally)
})

describe('token requests', () => {
  it('refuses a request without hl7-b2b when the server requires it, without a token request', async () => {
    const client = createUdapClient(sandbox, identityOf(valid))
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: defaultClientUri,
      ...trust,
    })
    const before = countsOf(sandbox)
    const error = await failureOf(client.requestBackendToken(), ConfigurationError)
    expect(error.invalidAttribute).toBe('extensions')
    expect(error.message).toMatch(/"hl7-b2b".*b2b \{ organizationId, purposeOfUse \}/)
    expect(countsOf(sandbox)).toEqual(before)
  })
})
