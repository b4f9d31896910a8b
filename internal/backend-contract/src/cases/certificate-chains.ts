import { CertificateChainError, type CertificateInput, type CrlInput } from '@fhir-auth/core'
import { testLeaves, testPki, testPkiReferenceTime } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import { chainVerdict, cryptoRejection } from '../support/errors.js'
import { keyLeaves } from '../support/leaf-keys.js'

/** Every verdict of the test PKI manifest, plus the inputs around them. */
export function describeCertificateChains(context: ContractContext): void {
  describe('verifyCertificateChain', () => {
    for (const leaf of testLeaves) {
      it(`${leaf.name}: ${leaf.expected} (${leaf.description})`, async () => {
        const verdict = await chainVerdict(() =>
          context.backend().verifyCertificateChain({
            chain: leaf.chainDer,
            trustAnchors: leaf.trustAnchorsDer,
            crls: leaf.crlsDer,
            at: testPkiReferenceTime,
          }),
        )
        expect(verdict).toBe(leaf.expected)
      })
    }

    it('returns the leaf (with its SAN URIs) and the path up to the anchor', async () => {
      const leaf = testPki.leaves['rsa-client-two-sans']
      const result = await context.backend().verifyCertificateChain({
        chain: leaf.chainDer,
        trustAnchors: leaf.trustAnchorsDer,
        crls: leaf.crlsDer,
        at: testPkiReferenceTime,
      })
      expect(result.leaf.subject).toBe(leaf.subject)
      expect(result.leaf.subjectAltNameUris).toEqual(leaf.sanUris)
      expect(result.path.map((certificate) => certificate.subject)).toEqual([
        leaf.subject,
        testPki.authorities['rsa-intermediate'].subject,
        testPki.authorities['rsa-root'].subject,
      ])
    })

    it('accepts PEM inputs as well as DER', async () => {
      const leaf = keyLeaves.p384
      const pemChain: CertificateInput[] = [
        leaf.certificatePem,
        testPki.authorities['ec-intermediate'].pem,
      ]
      const result = await context.backend().verifyCertificateChain({
        chain: pemChain,
        trustAnchors: leaf.trustAnchors.map((anchor) => anchor.pem),
        crls: leaf.crls.map((crl) => crl.pem),
        at: testPkiReferenceTime,
      })
      expect(result.leaf.serialNumber).toBe(leaf.serialNumber)
    })

    it('reads every block of a PEM entry, in order: a chain file, an anchor bundle, a CRL bundle', async () => {
      const leaf = keyLeaves.rsa
      // The anchor the chain needs comes last in its bundle, after one that signs nothing here.
      const anchorBundle = [
        testPki.authorities['untrusted-root'].pem,
        ...leaf.trustAnchors.map((anchor) => anchor.pem),
      ].join('')
      const result = await context.backend().verifyCertificateChain({
        chain: [leaf.chainPem],
        trustAnchors: [anchorBundle],
        crls: [leaf.crls.map((crl) => crl.pem).join('')],
        at: testPkiReferenceTime,
      })
      expect(result.path.map((certificate) => certificate.subject)).toEqual([
        leaf.subject,
        testPki.authorities['rsa-intermediate'].subject,
        testPki.authorities['rsa-root'].subject,
      ])
    })

    it('refuses a PEM chain entry whose second block is malformed with CryptoError invalid-certificate', async () => {
      const leaf = keyLeaves.rsa
      await cryptoRejection(
        () =>
          context.backend().verifyCertificateChain({
            chain: [
              `${leaf.certificatePem}-----BEGIN CERTIFICATE-----\nAQ*D\n-----END CERTIFICATE-----\n`,
            ],
            trustAnchors: leaf.trustAnchorsDer,
            crls: leaf.crlsDer,
            at: testPkiReferenceTime,
          }),
        'invalid-certificate',
      )
    })

    it('still validates the valid chains at the current time', async () => {
      for (const leaf of [keyLeaves.rsa, keyLeaves.p256]) {
        const verdict = await chainVerdict(() =>
          context.backend().verifyCertificateChain({
            chain: leaf.chainDer,
            trustAnchors: leaf.trustAnchorsDer,
            crls: leaf.crlsDer,
            at: new Date(),
          }),
        )
        expect(verdict).toBe('ok')
      }
    })

    it('requires CRLs: none supplied is crl-missing', async () => {
      const leaf = keyLeaves.rsa
      const error = await context
        .backend()
        .verifyCertificateChain({
          chain: leaf.chainDer,
          trustAnchors: leaf.trustAnchorsDer,
          crls: [],
          at: testPkiReferenceTime,
        })
        .catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(CertificateChainError)
      expect((error as CertificateChainError).reason).toBe('crl-missing')
      expect((error as CertificateChainError).subject).toBe(leaf.subject)
    })

    it('refuses a malformed certificate or CRL with CryptoError before any policy runs', async () => {
      const backend = context.backend()
      const leaf = keyLeaves.rsa
      const truncated = leaf.certificateDer.subarray(0, 100)
      await cryptoRejection(
        () =>
          backend.verifyCertificateChain({
            chain: [truncated],
            trustAnchors: leaf.trustAnchorsDer,
            crls: leaf.crlsDer,
            at: testPkiReferenceTime,
          }),
        'invalid-certificate',
      )
      await cryptoRejection(
        () =>
          backend.verifyCertificateChain({
            chain: leaf.chainDer,
            trustAnchors: ['garbage'],
            crls: leaf.crlsDer,
            at: testPkiReferenceTime,
          }),
        'invalid-certificate',
      )
      const badCrls: CrlInput[] = [...leaf.crlsDer, new Uint8Array([0x30, 0x00])]
      await cryptoRejection(
        () =>
          backend.verifyCertificateChain({
            chain: leaf.chainDer,
            trustAnchors: leaf.trustAnchorsDer,
            crls: badCrls,
            at: testPkiReferenceTime,
          }),
        'invalid-crl',
      )
    })
  })
}
