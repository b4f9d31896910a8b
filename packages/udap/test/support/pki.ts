/**
 * The test PKI of the portable UDAP tests: the committed fixtures of `@fhir-auth/test-pki` (plain
 * data, no Node API), so these tests run in Node, in the edge runtime and in Chromium. Every
 * fixture leaf carries the SAN `https://client.example.test/app`; the "server" is the leaf that
 * also carries `https://client.example.test/app,second`, which is therefore the FHIR base URL
 * here: base URL and client URI stay different, as in a real deployment.
 *
 * All verdicts hold at {@link testPkiReferenceTime} (2027-01-01); certificates and CRLs are valid
 * 2025-01-01 → 2045-01-01 unless the leaf says otherwise. The Node-only tests that need freshly
 * minted certificates use `issued-pki.ts` instead.
 */
import { type TestLeafName, testPki, testPkiReferenceTime } from '@fhir-auth/test-pki'

export const clientUri = 'https://client.example.test/app'
export const baseUrl = 'https://client.example.test/app,second'
export const tokenEndpoint = 'https://auth.example.test/token'
export const registrationEndpoint = 'https://auth.example.test/register'
export const authorizationEndpoint = 'https://auth.example.test/authorize'

/** A certificate holder: its certificate, key and the chain it would send in `x5c`. */
export interface TestIdentity {
  readonly certificatePem: string
  readonly certificateDer: Uint8Array
  /** Leaf first, then its intermediate (as a client sends it). */
  readonly chainDer: readonly Uint8Array[]
  /** Unencrypted PKCS#8 PEM. */
  readonly privateKeyPem: string
  readonly serialNumber: string
  readonly sanUris: readonly string[]
  /** The CRLs (PEM) the test PKI gives for this leaf's case. */
  readonly crls: readonly string[]
}

/** A CA certificate of the test PKI. */
export interface TestAuthority {
  readonly certificatePem: string
  readonly certificateDer: Uint8Array
  readonly serialNumber: string
}

export interface TestPki {
  readonly now: Date
  /** RSA 2048 under the RSA community; SANs `clientUri` and `baseUrl`. */
  readonly server: TestIdentity
  /** EC P-256 under the EC community (P-384 intermediate and root); SAN `clientUri`. */
  readonly clientEc: TestIdentity
  /** EC P-384 under the EC community; SAN `clientUri`. */
  readonly clientP384: TestIdentity
  /** RSA 2048 under the RSA community; SAN `clientUri`. */
  readonly clientRsa: TestIdentity
  readonly rsaRoot: TestAuthority
  readonly rsaIntermediate: TestAuthority
  readonly ecRoot: TestAuthority
  readonly ecIntermediate: TestAuthority
  /** PEM of the trusted roots: the RSA and the EC community roots. */
  readonly anchors: readonly string[]
  /** Every current CRL (PEM) with a valid signature; nothing in the server's path is revoked. */
  readonly crls: readonly string[]
  /** Any leaf case of the test PKI (revoked, expired, untrusted, …). */
  leaf(name: TestLeafName): TestIdentity
}

function identity(name: TestLeafName): TestIdentity {
  const leaf = testPki.leaves[name]
  return {
    certificatePem: leaf.certificatePem,
    certificateDer: leaf.certificateDer,
    chainDer: leaf.chainDer,
    privateKeyPem: leaf.privateKeyPkcs8Pem,
    serialNumber: leaf.serialNumber,
    sanUris: leaf.sanUris,
    crls: leaf.crls.map((crl) => crl.pem),
  }
}

function authority(name: keyof typeof testPki.authorities): TestAuthority {
  const found = testPki.authorities[name]
  return { certificatePem: found.pem, certificateDer: found.der, serialNumber: found.serialNumber }
}

const fixturePki: TestPki = Object.freeze({
  now: testPkiReferenceTime,
  server: identity('rsa-client-two-sans'),
  clientEc: identity('ec-p256-client'),
  clientP384: identity('ec-p384-client'),
  clientRsa: identity('rsa-client'),
  rsaRoot: authority('rsa-root'),
  rsaIntermediate: authority('rsa-intermediate'),
  ecRoot: authority('ec-root'),
  ecIntermediate: authority('ec-intermediate'),
  anchors: testPki.trustAnchors.map((anchor) => anchor.pem),
  crls: testPki.currentCrls.map((crl) => crl.pem),
  leaf: identity,
})

/** The committed test PKI, shaped for the UDAP tests (async like the Node-only issued PKI). */
export async function createTestPki(): Promise<TestPki> {
  return fixturePki
}

/** The CRL (PEM) of a test PKI authority, or one of its hostile variants. */
export function crlOf(name: keyof typeof testPki.crls): string {
  return testPki.crls[name].pem
}
