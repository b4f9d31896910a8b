/**
 * Values of certificates and CRLs that a CA really signed, read by both backends'
 * `verifyCertificateChain` and `parseCertificate`: serial numbers compare as integers (a CRL
 * listing −1, `ff`, does not revoke +255, `00 ff`), padded serial INTEGERs are refused (X.690
 * §8.3.2), GeneralizedTime years 0000–0099 read as themselves and fractional seconds are refused
 * (RFC 5280 §4.1.2.5.2), and a NULL with content is refused (X.690 §8.8.2).
 */
import {
  CertificateChainError,
  type CryptoBackend,
  CryptoError,
  type VerifiedCertificateChain,
} from '@fhir-auth/core'
import {
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '@fhir-auth/core/backend'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  deriveTestKeyPair,
} from '@fhir-auth/test-pki/issuer'
import { beforeAll, describe, expect, it } from 'vitest'

const backends: readonly (readonly [string, CryptoBackend])[] = [
  ['crypto-node', createNodeCryptoBackend()],
  ['crypto-webcrypto', createWebCryptoBackend()],
]
const at = new Date('2030-06-01T00:00:00Z')
const window = {
  notBefore: new Date('2025-01-01T00:00:00Z'),
  notAfter: new Date('2045-01-01T00:00:00Z'),
}
const leafKey = deriveTestKeyPair('integer values leaf', 'p256')

let root: CertificateAuthority

beforeAll(async () => {
  root = await createCertificateAuthority({
    name: 'Integer Values Root',
    keyPair: deriveTestKeyPair('integer values root', 'p256'),
    ...window,
  })
})

function verify(
  backend: CryptoBackend,
  chain: readonly Uint8Array[],
  revokedSerials: readonly bigint[],
  authority = root,
): Promise<VerifiedCertificateChain> {
  return backend.verifyCertificateChain({
    chain,
    trustAnchors: [authority.certificateDer],
    crls: [authority.crl({ revokedSerials, thisUpdate: window.notBefore }).crlDer],
    at,
  })
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!(error instanceof Error)) throw new Error('expected the promise to be rejected')
  return error
}

/** The certificate with TBS field `index` replaced (the signature no longer matches). */
function withTbsField(der: Uint8Array, index: number, field: Uint8Array): Uint8Array {
  const [tbs, ...outer] = readDerChildren(readDerDocument(der))
  const fields = readDerChildren(tbs as ReturnType<typeof readDerDocument>).map(
    (child) => child.bytes,
  )
  fields[index] = field
  return encodeDerSequence(encodeDerSequence(...fields), ...outer.map((child) => child.bytes))
}

/** The certificate with its serial INTEGER content replaced. */
const withSerialContent = (der: Uint8Array, content: Uint8Array) =>
  withTbsField(der, 1, encodeDer(0x02, content))

/** What both `parseCertificate` and `verifyCertificateChain` say about `der`. */
async function refusals(backend: CryptoBackend, der: Uint8Array): Promise<Error[]> {
  return [
    await failureOf(backend.parseCertificate(der)),
    await failureOf(verify(backend, [der], [])),
  ]
}

describe.each(backends)('%s', (_name, backend) => {
  it('compares serial numbers as integers: a CRL listing -1 does not revoke +255', async () => {
    const leaf = await root.issue({
      commonName: 'serial 255',
      serial: 255n,
      keyPair: leafKey,
      ...window,
    })
    expect((await backend.parseCertificate(leaf.certificateDer)).serialNumber).toBe('ff')
    const verified = await verify(backend, [leaf.certificateDer], [-1n])
    expect(verified.leaf.serialNumber).toBe('ff')
    const revoked = await failureOf(verify(backend, [leaf.certificateDer], [255n]))
    expect(revoked).toBeInstanceOf(CertificateChainError)
    expect((revoked as CertificateChainError).reason).toBe('revoked')
  })

  it('revokes a negative serial number by the CRL entry with the same value only', async () => {
    const leaf = await root.issue({
      commonName: 'serial -1',
      serial: -1n,
      keyPair: leafKey,
      ...window,
    })
    expect((await backend.parseCertificate(leaf.certificateDer)).serialNumber).toBe('-01')
    await expect(verify(backend, [leaf.certificateDer], [255n])).resolves.toBeDefined()
    const revoked = await failureOf(verify(backend, [leaf.certificateDer], [-1n]))
    expect((revoked as CertificateChainError).reason).toBe('revoked')
  })

  it('refuses a certificate whose serial INTEGER is padded (X.690 §8.3.2)', async () => {
    const leaf = await root.issue({
      commonName: 'serial 255',
      serial: 255n,
      keyPair: leafKey,
      ...window,
    })
    const padded = withSerialContent(leaf.certificateDer, Uint8Array.of(0x00, 0x00, 0xff))
    for (const attempt of [
      () => backend.parseCertificate(padded),
      () => verify(backend, [padded], []),
    ]) {
      const error = await failureOf(attempt())
      expect(error).toBeInstanceOf(CryptoError)
      expect((error as CryptoError).reason).toBe('invalid-certificate')
      expect(error.message).toBe('the serial number is not a minimally encoded INTEGER')
    }
  })

  it('refuses GeneralizedTime with fractional seconds (RFC 5280 §4.1.2.5.2)', async () => {
    const leaf = await root.issue({ commonName: 'fraction', keyPair: leafKey, ...window })
    const time = (text: string) => encodeDer(0x18, new TextEncoder().encode(text))
    const fractional = withTbsField(
      leaf.certificateDer,
      4,
      encodeDerSequence(time('20250101000000.5Z'), time('20450101000000Z')),
    )
    for (const error of await refusals(backend, fractional)) {
      expect(error).toBeInstanceOf(CryptoError)
      expect(error.message).toBe('notBefore is not a valid UTC time: "20250101000000.5Z"')
    }
  })

  it('refuses a NULL with content in an AlgorithmIdentifier (X.690 §8.8.2)', async () => {
    const leaf = await root.issue({ commonName: 'null', keyPair: leafKey, ...window })
    const ecdsaWithSha256 = readDerChildren(readDerDocument(leaf.certificateDer))[1]?.bytes
    const oid = readDerChildren(readDerDocument(ecdsaWithSha256 as Uint8Array))[0]?.bytes
    const identifier = encodeDerSequence(oid as Uint8Array, encodeDer(0x05, Uint8Array.of(0)))
    const [tbs, , signature] = readDerChildren(
      readDerDocument(withTbsField(leaf.certificateDer, 2, identifier)),
    )
    // The same identifier outside the TBS too, so the two still agree.
    const withNull = encodeDerSequence(
      tbs?.bytes as Uint8Array,
      identifier,
      signature?.bytes as Uint8Array,
    )
    for (const error of await refusals(backend, withNull)) {
      expect(error).toBeInstanceOf(CryptoError)
      expect((error as CryptoError).reason).toBe('invalid-certificate')
      expect(error.message).toMatch(/ has a NULL with content$/)
    }
  })

  it('reads GeneralizedTime years 0000-0099 as themselves', async () => {
    const ancient = await createCertificateAuthority({
      name: 'Ancient Root',
      keyPair: deriveTestKeyPair('integer values root', 'p256'),
      notBefore: new Date('0050-01-01T00:00:00Z'),
      notAfter: window.notAfter,
    })
    const parsed = await backend.parseCertificate(ancient.certificateDer)
    expect(parsed.notBefore.toISOString()).toBe('0050-01-01T00:00:00.000Z')
    const leaf = await ancient.issue({ commonName: 'leaf', keyPair: leafKey, ...window })
    const verified = await verify(backend, [leaf.certificateDer], [], ancient)
    expect(verified.path.at(-1)?.notBefore.getUTCFullYear()).toBe(50)
  })
})
