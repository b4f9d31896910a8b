import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CertificateChainError } from '@fhir-auth/core'
import {
  encodeDerOid,
  parseCertificate,
  parseCrl,
  validateCertificateChain,
} from '@fhir-auth/core/backend'
import { describe, expect, it } from 'vitest'
import { testLeaves, testPki, testPkiReferenceTime } from '../src/index.js'
import { nodeSignatureVerifier } from './node-verifier.js'

const fixtures = join(import.meta.dirname, '..', 'fixtures')
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'))
const spkiOf = (key: Parameters<typeof createPublicKey>[0]) => [
  ...createPublicKey(key).export({ format: 'der', type: 'spki' }),
]

function includes(haystack: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(haystack).includes(Buffer.from(needle))
}

describe('the committed test PKI', () => {
  it('has the same cases, in the same order, in manifest.json and the generated module', () => {
    expect(testLeaves.map((leaf) => [leaf.name, leaf.expected])).toEqual(
      manifest.cases.map((entry: { name: string; expected: string }) => [
        entry.name,
        entry.expected,
      ]),
    )
    expect(manifest.referenceTime).toBe(testPkiReferenceTime.toISOString().replace('.000', ''))
  })

  it('has every case the contract suite relies on, with its verdict', () => {
    const verdicts = Object.fromEntries(testLeaves.map((leaf) => [leaf.name, leaf.expected]))
    expect(verdicts).toEqual({
      'rsa-client': 'ok',
      'rsa-client-two-sans': 'ok',
      'ec-p256-client': 'ok',
      'ec-p384-client': 'ok',
      revoked: 'revoked',
      'under-revoked-intermediate': 'revoked',
      expired: 'expired',
      'not-yet-valid': 'not-yet-valid',
      untrusted: 'untrusted',
      'stale-crl': 'crl-stale',
      'crl-bad-signature': 'crl-bad-signature',
      'missing-issuer': 'no-path',
      'wrong-order': 'order',
      'not-a-ca': 'not-a-ca',
      'bad-signature': 'bad-signature',
    })
  })

  for (const leaf of testLeaves) {
    describe(leaf.name, () => {
      const entry = manifest.cases.find((item: { name: string }) => item.name === leaf.name)

      it('matches its files on disk', () => {
        expect(readFileSync(join(fixtures, entry.files.certificate), 'utf8')).toBe(
          leaf.certificatePem,
        )
        expect(readFileSync(join(fixtures, entry.files.privateKeyPkcs8), 'utf8')).toBe(
          leaf.privateKeyPkcs8Pem,
        )
        expect(readFileSync(join(fixtures, entry.files.privateKeyTraditional), 'utf8')).toBe(
          leaf.privateKeyTraditionalPem,
        )
        expect(readFileSync(join(fixtures, entry.files.chain), 'utf8')).toBe(leaf.chainPem)
        expect([...readFileSync(join(fixtures, entry.files.pkcs12))]).toEqual([...leaf.pkcs12])
        expect([...readFileSync(join(fixtures, entry.files.pkcs12Legacy))]).toEqual([
          ...leaf.pkcs12Legacy,
        ])
        expect(JSON.parse(readFileSync(join(fixtures, entry.files.x5c), 'utf8'))).toEqual(
          leaf.chainDer.map((der) => Buffer.from(der).toString('base64')),
        )
      })

      it('has one key in three forms that belongs to its certificate', () => {
        const certificateKey = [
          ...new X509Certificate(leaf.certificateDer).publicKey.export({
            format: 'der',
            type: 'spki',
          }),
        ]
        expect(spkiOf(leaf.privateKeyPkcs8Pem)).toEqual(certificateKey)
        expect(spkiOf(leaf.privateKeyTraditionalPem)).toEqual(certificateKey)
        expect(createPrivateKey(leaf.privateKeyTraditionalPem).asymmetricKeyType).toBe(
          leaf.keyType.startsWith('rsa') ? 'rsa' : 'ec',
        )
        expect(leaf.privateKeyTraditionalPem).toContain(
          leaf.privateKeyTraditionalFormat === 'pkcs1'
            ? 'BEGIN RSA PRIVATE KEY'
            : 'BEGIN EC PRIVATE KEY',
        )
      })

      it('describes its certificate truthfully', () => {
        const parsed = parseCertificate(leaf.certificateDer)
        expect(parsed.subject).toBe(leaf.subject)
        expect(parsed.serialNumber).toBe(leaf.serialNumber)
        expect(parsed.subjectAltNameUris).toEqual(leaf.sanUris)
        expect(parsed.notAfter.getTime()).toBe(leaf.notAfter.getTime())
        expect([...(leaf.chainDer[0] ?? [])]).toEqual([...leaf.certificateDer])
      })

      it('has a modern (PBES2, AES-256) and a legacy (3DES) PKCS#12 file', () => {
        const pbes2 = encodeDerOid('1.2.840.113549.1.5.13')
        const aes256Cbc = encodeDerOid('2.16.840.1.101.3.4.1.42')
        const tripleDes = encodeDerOid('1.2.840.113549.1.12.1.3')
        expect(includes(leaf.pkcs12, pbes2) && includes(leaf.pkcs12, aes256Cbc)).toBe(true)
        expect(includes(leaf.pkcs12, tripleDes)).toBe(false)
        expect(includes(leaf.pkcs12Legacy, tripleDes)).toBe(true)
        expect(includes(leaf.pkcs12Legacy, pbes2)).toBe(false)
        expect(leaf.pkcs12Password).toBe('udap-test')
      })

      it(`validates to ${leaf.expected} at the reference time with core's policy`, async () => {
        const verdict = await validateCertificateChain(
          {
            chain: leaf.chainDer.map(parseCertificate),
            trustAnchors: leaf.trustAnchorsDer.map(parseCertificate),
            crls: leaf.crlsDer.map(parseCrl),
            at: testPkiReferenceTime,
          },
          nodeSignatureVerifier,
        ).then(
          () => 'ok',
          (error: unknown) => (error instanceof CertificateChainError ? error.reason : 'thrown'),
        )
        expect(verdict).toBe(leaf.expected)
      })
    })
  }

  it('keeps its valid cases valid today (regenerate before 2045-01-01)', async () => {
    const valid = testLeaves.filter((item) => item.expected === 'ok')
    expect(valid.length).toBeGreaterThan(0)
    for (const leaf of valid) {
      await expect(
        validateCertificateChain(
          {
            chain: leaf.chainDer.map(parseCertificate),
            trustAnchors: leaf.trustAnchorsDer.map(parseCertificate),
            crls: leaf.crlsDer.map(parseCrl),
            at: new Date(),
          },
          nodeSignatureVerifier,
        ),
      ).resolves.toBeDefined()
    }
  })

  it('lists only the trusted community roots as trust anchors and only current CRLs as current', () => {
    expect(testPki.trustAnchors.map((anchor) => anchor.name)).toEqual(['rsa-root', 'ec-root'])
    expect(testPki.currentCrls.map((crl) => crl.name)).not.toContain('rsa-intermediate-stale')
    expect(testPki.currentCrls.map((crl) => crl.name)).not.toContain(
      'rsa-intermediate-bad-signature',
    )
    expect(testPki.currentCrls.length).toBeGreaterThan(0)
    for (const crl of testPki.currentCrls)
      expect(parseCrl(crl.der).nextUpdate?.toISOString()).toBe('2045-01-01T00:00:00.000Z')
  })

  it('has an encrypted copy of one leaf key that node:crypto opens with the passphrase', () => {
    const { leaf, pem, passphrase } = testPki.encryptedPrivateKey
    expect(pem).toContain('BEGIN ENCRYPTED PRIVATE KEY')
    expect(spkiOf(createPrivateKey({ key: pem, passphrase }))).toEqual(
      spkiOf(testPki.leaves[leaf].privateKeyPkcs8Pem),
    )
  })
})
