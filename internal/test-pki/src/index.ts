/**
 * `@fhir-auth/test-pki`: the committed test PKI as typed, runtime-agnostic data (no file
 * system, no Node APIs), so the backend contract suite runs in Node and in browsers alike.
 *
 * Every leaf carries what a test needs: its certificate and key in each PEM form, the
 * leaf-first chain a client would send, the trust anchors and CRLs to validate it with, both
 * PKCS#12 files, and the verdict the chain policy must give at {@link testPkiReferenceTime}.
 * Certificates are valid 2025-01-01 to 2045-01-01 unless the case says otherwise.
 *
 * @see ../README.md for the cases and how to regenerate them.
 */
import { base64Decode, type CertificateChainFailureReason } from '@fhir-auth/core'
import { decodePemBlocks } from '@fhir-auth/core/internal'
import {
  currentCrlNames,
  encryptedPrivateKey,
  authorities as generatedAuthorities,
  crls as generatedCrls,
  leaves as generatedLeaves,
  pkcs12Password,
  trustAnchorNames,
} from './fixtures.generated.js'

/** The time every committed verdict holds at: 2027-01-01T00:00:00Z. */
export const testPkiReferenceTime = new Date('2027-01-01T00:00:00Z')

/** What the chain policy must answer for a case: `'ok'` or the failure reason. */
export type ExpectedVerdict = 'ok' | CertificateChainFailureReason

export type TestLeafName = keyof typeof generatedLeaves
export type TestAuthorityName = keyof typeof generatedAuthorities
export type TestCrlName = keyof typeof generatedCrls

/** A CA certificate of the test PKI. */
export interface TestCertificate {
  readonly name: TestAuthorityName
  readonly pem: string
  readonly der: Uint8Array
  readonly subject: string
  readonly serialNumber: string
  readonly keyType: string
}

/** A CRL of the test PKI. */
export interface TestCrl {
  readonly name: TestCrlName
  readonly pem: string
  readonly der: Uint8Array
}

/** One leaf certificate case. */
export interface TestLeaf {
  readonly name: TestLeafName
  readonly description: string
  /** The verdict at {@link testPkiReferenceTime} for `chainDer` + `trustAnchorsDer` + `crlsDer`. */
  readonly expected: ExpectedVerdict
  /** `rsa2048`, `p256` or `p384`. */
  readonly keyType: 'rsa2048' | 'p256' | 'p384'
  readonly subject: string
  readonly serialNumber: string
  readonly notBefore: Date
  readonly notAfter: Date
  /** SAN URIs exactly as encoded. */
  readonly sanUris: readonly string[]
  readonly certificatePem: string
  readonly certificateDer: Uint8Array
  /** Unencrypted PKCS#8 `PRIVATE KEY` PEM. */
  readonly privateKeyPkcs8Pem: string
  /** The same key as PKCS#1 `RSA PRIVATE KEY` (RSA) or SEC1 `EC PRIVATE KEY` (EC) PEM. */
  readonly privateKeyTraditionalPem: string
  readonly privateKeyTraditionalFormat: 'pkcs1' | 'sec1'
  /** Leaf first, as sent in `x5c` (normally leaf + intermediate; hostile cases differ). */
  readonly chainDer: readonly Uint8Array[]
  readonly chainPem: string
  readonly trustAnchors: readonly TestCertificate[]
  readonly trustAnchorsDer: readonly Uint8Array[]
  readonly crls: readonly TestCrl[]
  readonly crlsDer: readonly Uint8Array[]
  /** PBES2 (AES-256-CBC, PBKDF2-HMAC-SHA256) with a SHA-256 MAC; key, leaf and issuers up to the root. */
  readonly pkcs12: Uint8Array
  /** pbeWithSHAAnd3-KeyTripleDES-CBC with a SHA-1 MAC (what Windows/.NET and older tools emit). */
  readonly pkcs12Legacy: Uint8Array
  readonly pkcs12Password: string
}

/** Everything in the test PKI. */
export interface TestPki {
  readonly referenceTime: Date
  readonly pkcs12Password: string
  readonly authorities: Readonly<Record<TestAuthorityName, TestCertificate>>
  /** The trusted roots: the RSA and the EC community roots (not the untrusted root). */
  readonly trustAnchors: readonly TestCertificate[]
  readonly crls: Readonly<Record<TestCrlName, TestCrl>>
  /** Every current CRL with a valid signature (not the stale or the corrupted one). */
  readonly currentCrls: readonly TestCrl[]
  readonly leaves: Readonly<Record<TestLeafName, TestLeaf>>
  /** One leaf's key as an encrypted PKCS#8 PEM (AES-256-CBC), which backends must refuse. */
  readonly encryptedPrivateKey: {
    readonly leaf: TestLeafName
    readonly pem: string
    readonly passphrase: string
  }
}

function pemToDer(pem: string, label: string): Uint8Array {
  const [der] = decodePemBlocks(pem, label)
  if (der === undefined)
    throw new Error(`the generated test PKI has no ${label} block where one is expected`)
  return der
}

function base64ToBytes(text: string): Uint8Array {
  const bytes = base64Decode(text)
  if (bytes === undefined) throw new Error('the generated test PKI has invalid base64')
  return bytes
}

function entries<Key extends string, Value>(
  record: Readonly<Record<Key, Value>>,
): Array<[Key, Value]> {
  return Object.entries(record) as Array<[Key, Value]>
}

const authorities = Object.fromEntries(
  entries(generatedAuthorities).map(([name, data]) => [
    name,
    Object.freeze({
      name,
      pem: data.pem,
      der: pemToDer(data.pem, 'CERTIFICATE'),
      subject: data.subject,
      serialNumber: data.serialNumber,
      keyType: data.keyType,
    }),
  ]),
) as Record<TestAuthorityName, TestCertificate>

const crls = Object.fromEntries(
  entries(generatedCrls).map(([name, pem]) => [
    name,
    Object.freeze({ name, pem, der: pemToDer(pem, 'X509 CRL') }),
  ]),
) as Record<TestCrlName, TestCrl>

const leaves = Object.fromEntries(
  entries(generatedLeaves).map(([name, data]): [TestLeafName, TestLeaf] => {
    const trustAnchors = data.trustAnchors.map((anchor) => authorities[anchor as TestAuthorityName])
    const leafCrls = data.crls.map((crl) => crls[crl as TestCrlName])
    const leaf: TestLeaf = {
      name,
      description: data.description,
      expected: data.expected as ExpectedVerdict,
      keyType: data.keyType as TestLeaf['keyType'],
      subject: data.subject,
      serialNumber: data.serialNumber,
      notBefore: new Date(data.notBefore),
      notAfter: new Date(data.notAfter),
      sanUris: Object.freeze([...data.sanUris]),
      certificatePem: data.certificatePem,
      certificateDer: pemToDer(data.certificatePem, 'CERTIFICATE'),
      privateKeyPkcs8Pem: data.privateKeyPkcs8Pem,
      privateKeyTraditionalPem: data.privateKeyTraditionalPem,
      privateKeyTraditionalFormat: data.keyType.startsWith('rsa') ? 'pkcs1' : 'sec1',
      chainDer: Object.freeze(decodePemBlocks(data.chainPem, 'CERTIFICATE')),
      chainPem: data.chainPem,
      trustAnchors: Object.freeze(trustAnchors),
      trustAnchorsDer: Object.freeze(trustAnchors.map((anchor) => anchor.der)),
      crls: Object.freeze(leafCrls),
      crlsDer: Object.freeze(leafCrls.map((crl) => crl.der)),
      pkcs12: base64ToBytes(data.pkcs12Base64),
      pkcs12Legacy: base64ToBytes(data.pkcs12LegacyBase64),
      pkcs12Password,
    }
    return [name, Object.freeze(leaf)]
  }),
) as Record<TestLeafName, TestLeaf>

/**
 * The committed test PKI.
 *
 * @example
 * ```ts
 * const leaf = testPki.leaves['rsa-client']
 * await backend.verifyCertificateChain({
 *   chain: leaf.chainDer, trustAnchors: leaf.trustAnchorsDer, crls: leaf.crlsDer, at: testPkiReferenceTime,
 * })
 * ```
 */
export const testPki: TestPki = Object.freeze({
  referenceTime: testPkiReferenceTime,
  pkcs12Password,
  authorities: Object.freeze(authorities),
  trustAnchors: Object.freeze(trustAnchorNames.map((name) => authorities[name])),
  crls: Object.freeze(crls),
  currentCrls: Object.freeze(currentCrlNames.map((name) => crls[name])),
  leaves: Object.freeze(leaves),
  encryptedPrivateKey: Object.freeze({ ...encryptedPrivateKey }),
})

/** Every leaf case, in the generator's order (valid ones first). */
export const testLeaves: readonly TestLeaf[] = Object.freeze(Object.values(leaves))

export { type PathRuleCase, pathRuleCase, pathRuleLeaves } from './path-rules.js'
