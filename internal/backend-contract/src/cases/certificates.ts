import type { CertificateInput } from '@fhir-auth/core'
import { signCompactJws } from '@fhir-auth/core/jws'
import { testPki } from '@fhir-auth/test-pki'
import { compactVerify, importJWK, type JWK } from 'jose'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import { cryptoRejection } from '../support/errors.js'
import { sampleClaims } from '../support/jose-verification.js'
import { algorithmCases, keyLeaves, privateJwkOf } from '../support/leaf-keys.js'

/** `parseCertificate` and `keyMatchesCertificate`. */
export function describeCertificates(context: ContractContext): void {
  describe('parseCertificate', () => {
    for (const leaf of [
      keyLeaves.rsa,
      keyLeaves.p256,
      keyLeaves.p384,
      testPki.leaves['rsa-client-two-sans'],
      testPki.leaves['not-yet-valid'],
    ]) {
      it(`reads ${leaf.name} from PEM and DER alike`, async () => {
        const backend = context.backend()
        for (const input of [leaf.certificatePem, leaf.certificateDer]) {
          const info = await backend.parseCertificate(input)
          expect([...info.der]).toEqual([...leaf.certificateDer])
          expect(info.subject).toBe(leaf.subject)
          expect(info.issuer).toBe(issuerSubjectOf(leaf.name))
          expect(info.serialNumber).toBe(leaf.serialNumber)
          expect(info.notBefore.toISOString()).toBe(leaf.notBefore.toISOString())
          expect(info.notAfter.toISOString()).toBe(leaf.notAfter.toISOString())
          expect(info.subjectAltNameUris).toEqual(leaf.sanUris)
          expect(info.isCertificateAuthority).toBe(false)
        }
      })
    }

    it('keeps SAN URIs exactly as encoded, without splitting on commas', async () => {
      const info = await context
        .backend()
        .parseCertificate(testPki.leaves['rsa-client-two-sans'].certificateDer)
      expect(info.subjectAltNameUris).toEqual([
        'https://client.example.test/app',
        'https://client.example.test/app,second',
      ])
    })

    it('reads a CA certificate as a CA', async () => {
      const root = testPki.authorities['rsa-root']
      const info = await context.backend().parseCertificate(root.pem)
      expect(info.isCertificateAuthority).toBe(true)
      expect(info.subject).toBe(root.subject)
      expect(info.issuer).toBe(root.subject)
    })

    for (const { algorithm, leaf, profile } of algorithmCases) {
      it(`gives a publicKeyJwk that jose can verify ${algorithm} with`, async () => {
        const backend = context.backend()
        const info = await backend.parseCertificate(leaf.certificateDer)
        expect(info.publicKeyJwk.d).toBeUndefined()
        const signer = await backend.importSigner(leaf.privateKeyPkcs8Pem, { profile, algorithm })
        const jws = await signCompactJws({}, sampleClaims, signer)
        // A JSON round trip gives jose a plain JWK (no undefined members).
        const key = await importJWK(JSON.parse(JSON.stringify(info.publicKeyJwk)) as JWK, algorithm)
        await expect(compactVerify(jws, key, { algorithms: [algorithm] })).resolves.toBeDefined()
      })
    }

    it('refuses garbage, truncated DER and wrong types with CryptoError invalid-certificate', async () => {
      const backend = context.backend()
      const der = keyLeaves.rsa.certificateDer
      await cryptoRejection(
        () => backend.parseCertificate('not a certificate'),
        'invalid-certificate',
      )
      await cryptoRejection(
        () => backend.parseCertificate(der.subarray(0, der.length - 10)),
        'invalid-certificate',
      )
      await cryptoRejection(
        () => backend.parseCertificate(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00])),
        'invalid-certificate',
      )
      await cryptoRejection(
        () =>
          backend.parseCertificate(
            '-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n',
          ),
        'invalid-certificate',
      )
      for (const value of [42, null, {}]) {
        await cryptoRejection(
          () => backend.parseCertificate(value as unknown as CertificateInput),
          'invalid-certificate',
        )
      }
    })
  })

  describe('keyMatchesCertificate', () => {
    for (const { algorithm, leaf } of algorithmCases.filter(
      (entry) => entry.algorithm !== 'RS384',
    )) {
      it(`is true for the ${leaf.name} key and its own certificate (PEM and JWK)`, async () => {
        const backend = context.backend()
        expect(
          await backend.keyMatchesCertificate(leaf.privateKeyPkcs8Pem, leaf.certificatePem),
        ).toBe(true)
        expect(
          await backend.keyMatchesCertificate(leaf.privateKeyTraditionalPem, leaf.certificateDer),
        ).toBe(true)
        expect(
          await backend.keyMatchesCertificate(
            await privateJwkOf(leaf, algorithm),
            leaf.certificateDer,
          ),
        ).toBe(true)
      })
    }

    it('is false for another certificate of the same key type', async () => {
      const backend = context.backend()
      expect(
        await backend.keyMatchesCertificate(
          keyLeaves.rsa.privateKeyPkcs8Pem,
          testPki.leaves.revoked.certificateDer,
        ),
      ).toBe(false)
      expect(
        await backend.keyMatchesCertificate(
          keyLeaves.p256.privateKeyPkcs8Pem,
          testPki.leaves['missing-issuer'].certificateDer,
        ),
      ).toBe(false)
    })

    it('is false for a certificate of another key type', async () => {
      const backend = context.backend()
      expect(
        await backend.keyMatchesCertificate(
          keyLeaves.rsa.privateKeyPkcs8Pem,
          keyLeaves.p256.certificateDer,
        ),
      ).toBe(false)
      expect(
        await backend.keyMatchesCertificate(
          keyLeaves.p256.privateKeyPkcs8Pem,
          keyLeaves.p384.certificateDer,
        ),
      ).toBe(false)
    })

    it('works for a JwsSigner by signing a probe', async () => {
      const backend = context.backend()
      const signer = await backend.importSigner(keyLeaves.p384.privateKeyPkcs8Pem, {
        profile: 'smart',
      })
      expect(await backend.keyMatchesCertificate(signer, keyLeaves.p384.certificateDer)).toBe(true)
      expect(
        await backend.keyMatchesCertificate(
          signer,
          testPki.leaves['ec-p256-client'].certificateDer,
        ),
      ).toBe(false)
    })
  })
}

/** The subject of the CA that issued a leaf, from the test PKI's authorities. */
function issuerSubjectOf(leafName: string): string {
  const byLeaf: Record<string, keyof typeof testPki.authorities> = {
    'ec-p256-client': 'ec-intermediate',
    'ec-p384-client': 'ec-intermediate',
  }
  return testPki.authorities[byLeaf[leafName] ?? 'rsa-intermediate'].subject
}
