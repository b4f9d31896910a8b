/**
 * Every key a UDAP client may hold, through `Client` against the sandbox: RSA 2048 (RS256),
 * EC P-256 (ES256) and P-384 (ES384) keys minted by the sandbox's CA, and keys with chains
 * loaded from the committed test-pki PKCS#12 files in both encodings (PBES2/AES and legacy
 * 3DES). The sandbox trusts the test-pki roots only because this file hands them over as
 * `clientTrust`.
 */
import {
  type Client,
  type CryptoBackend,
  CryptoError,
  loadPkcs12,
  type RegistrationResponse,
  type TokenResponse,
} from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inspectJws, standardBase64, verifiesWithFirstX5c } from './support/jws-inspection.js'
import { clientAssertionOf, requestsTo, softwareStatementOf } from './support/sandbox-requests.js'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  defaultClientUri,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

let sandbox: UdapSandbox
let trust: TrustInputs

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    clientTrust: {
      anchors: testPki.trustAnchors.map((anchor) => anchor.pem),
      crls: testPki.currentCrls.map((crl) => crl.pem),
    },
  })
  trust = trustInputsOf(sandbox.trust)
})
afterAll(() => sandbox.close())

/** What one register + token round trip put on the wire. */
interface RoundTrip {
  readonly registration: RegistrationResponse
  readonly token: TokenResponse
  readonly softwareStatement: string
  readonly authenticationToken: string
}

/** Registers `client` as `clientUri` and asks for a B2B token, returning what the server saw. */
async function registerAndRequestToken(client: Client, clientUri: string): Promise<RoundTrip> {
  const since = sandbox.requests.length
  const registration = await client.registerClient(clientCredentialsRegistration, {
    clientUri,
    ...trust,
  })
  const token = await client.requestBackendToken({ b2b: b2bContext })
  const [registrationRequest] = requestsTo(sandbox, '/register', since)
  const [tokenRequest] = requestsTo(sandbox, '/token', since)
  if (registrationRequest === undefined || tokenRequest === undefined) {
    throw new Error('the round trip did not reach both the registration and the token endpoint')
  }
  return {
    registration,
    token,
    softwareStatement: softwareStatementOf(registrationRequest),
    authenticationToken: clientAssertionOf(tokenRequest),
  }
}

describe('keys minted by the sandbox CA: the algorithm follows the key', () => {
  const cases = [
    { keyType: 'rsa2048', algorithm: 'RS256' },
    { keyType: 'p256', algorithm: 'ES256' },
    { keyType: 'p384', algorithm: 'ES384' },
  ] as const

  it.each(cases)(
    'a $keyType key registers and gets a token with $algorithm',
    async ({ keyType, algorithm }) => {
      const clientUri = `https://client.example.test/${keyType}`
      const certificate = await sandbox.certificateAuthority.issue({
        commonName: `${keyType} client`,
        sanUris: [clientUri],
        keyType,
      })
      const client = createUdapClient(sandbox, identityOf(certificate))
      const trip = await registerAndRequestToken(client, clientUri)

      expect(trip.token.token_type).toBe('Bearer')
      for (const jws of [trip.softwareStatement, trip.authenticationToken]) {
        const { header } = inspectJws(jws)
        expect(header.alg).toBe(algorithm)
        expect((header.x5c as unknown[])[0]).toBe(standardBase64(certificate.certificateDer))
        expect(verifiesWithFirstX5c(jws)).toBe(true)
      }
      expect(inspectJws(trip.authenticationToken).claims.iss).toBe(trip.registration.client_id)
    },
  )
})

describe('keys and chains from PKCS#12 files (loadPkcs12)', () => {
  const encodings = [
    { encoding: 'PBES2 / AES-256-CBC', file: 'pkcs12' },
    { encoding: 'legacy 3DES', file: 'pkcs12Legacy' },
  ] as const

  describe.each([
    { leafName: 'rsa-client', algorithm: 'RS256' },
    { leafName: 'ec-p384-client', algorithm: 'ES384' },
  ] as const)('the $leafName fixture with the default backend', ({ leafName, algorithm }) => {
    const leaf = testPki.leaves[leafName]

    it('carries the client URI as a SAN (the precondition of these tests)', () => {
      expect(leaf.sanUris).toContain(defaultClientUri)
    })

    it.each(encodings)('a $encoding file registers and gets a token', async ({ file }) => {
      const contents = await loadPkcs12(leaf[file], leaf.pkcs12Password)
      const client = createUdapClient(sandbox, contents)
      const trip = await registerAndRequestToken(client, defaultClientUri)

      expect(trip.token.token_type).toBe('Bearer')
      const { header } = inspectJws(trip.softwareStatement)
      expect(header.alg).toBe(algorithm)
      expect((header.x5c as unknown[])[0]).toBe(standardBase64(leaf.certificateDer))
      expect(verifiesWithFirstX5c(trip.softwareStatement)).toBe(true)
      expect(verifiesWithFirstX5c(trip.authenticationToken)).toBe(true)
      const stored = sandbox.registrations.get(trip.registration.client_id)
      expect(stored?.certificate.der).toEqual(leaf.certificateDer)
    })
  })

  describe('with crypto-webcrypto', () => {
    const leaf = testPki.leaves['ec-p256-client']
    let crypto: CryptoBackend

    beforeAll(() => {
      crypto = createWebCryptoBackend()
    })

    it('a PBES2 file registers and gets a token (ES256)', async () => {
      const contents = await loadPkcs12(leaf.pkcs12, leaf.pkcs12Password, { crypto })
      const client = createUdapClient(sandbox, contents, { crypto })
      const trip = await registerAndRequestToken(client, defaultClientUri)

      expect(trip.token.token_type).toBe('Bearer')
      expect(inspectJws(trip.authenticationToken).header.alg).toBe('ES256')
      expect(verifiesWithFirstX5c(trip.authenticationToken)).toBe(true)
      expect(sandbox.registrations.get(trip.registration.client_id)?.certificate.der).toEqual(
        leaf.certificateDer,
      )
    })

    it('a legacy 3DES file fails with CryptoError pkcs12-unsupported-encryption', async () => {
      const error = await failureOf(
        loadPkcs12(leaf.pkcs12Legacy, leaf.pkcs12Password, { crypto }),
        CryptoError,
      )
      expect(error.reason).toBe('pkcs12-unsupported-encryption')
      expect(error.message).toMatch(/3DES|TripleDES/i)
      expect(error.message).not.toContain(leaf.pkcs12Password)
    })
  })
})
