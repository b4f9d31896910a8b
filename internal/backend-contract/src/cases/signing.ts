import { base64UrlDecode } from '@fhir-auth/core'
import { testPki } from '@fhir-auth/test-pki'
import { CompactSign, importPKCS8 } from 'jose'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import { cryptoRejection } from '../support/errors.js'
import { signAndVerifyWithJose } from '../support/jose-verification.js'
import { algorithmCases, keyLeaves } from '../support/leaf-keys.js'

/** Sign/verify round trips per algorithm, signature lengths and `verifySignature`. */
export function describeSigning(context: ContractContext): void {
  describe('signing', () => {
    for (const { algorithm, leaf, profile, signatureLength } of algorithmCases) {
      it(`signs ${algorithm} JWS that jose verifies (${leaf.name}, ${profile})`, async () => {
        const signer = await context
          .backend()
          .importSigner(leaf.privateKeyPkcs8Pem, { profile, algorithm })
        await signAndVerifyWithJose(signer, leaf.certificatePem, algorithm)
      })

      it(`returns ${algorithm} signatures of ${signatureLength} bytes that verifySignature accepts`, async () => {
        const backend = context.backend()
        const signer = await backend.importSigner(leaf.privateKeyPkcs8Pem, { profile, algorithm })
        const data = new TextEncoder().encode('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0')
        const signature = await signer.sign(data)
        expect(signature).toBeInstanceOf(Uint8Array)
        expect(signature.length).toBe(signatureLength)
        const publicKeySpki = (await backend.parseCertificate(leaf.certificateDer)).publicKeySpki
        expect(await backend.verifySignature({ algorithm, publicKeySpki, data, signature })).toBe(
          true,
        )
        const tampered = new Uint8Array(signature)
        tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 0x01
        expect(
          await backend.verifySignature({ algorithm, publicKeySpki, data, signature: tampered }),
        ).toBe(false)
      })
    }

    it('attaches kid and the certificate chain from the options to the signer', async () => {
      const leaf = keyLeaves.p256
      const signer = await context.backend().importSigner(leaf.privateKeyPkcs8Pem, {
        profile: 'udap',
        kid: 'contract-key-1',
        certificateChain: leaf.chainDer,
      })
      expect(signer.kid).toBe('contract-key-1')
      expect(signer.certificateChain?.map((der) => [...der])).toEqual(
        leaf.chainDer.map((der) => [...der]),
      )
      expect(signer.alg).toBe('ES256')
    })
  })

  describe('verifySignature', () => {
    // Signatures made by jose (WebCrypto), independent of the backend under test, including
    // the RSASSA-PSS and SHA-512 variants certificates may carry.
    const joseCases = [
      { algorithm: 'RS256', leaf: keyLeaves.rsa },
      { algorithm: 'RS384', leaf: keyLeaves.rsa },
      { algorithm: 'RS512', leaf: keyLeaves.rsa },
      { algorithm: 'PS256', leaf: keyLeaves.rsa },
      { algorithm: 'PS384', leaf: keyLeaves.rsa },
      { algorithm: 'PS512', leaf: keyLeaves.rsa },
      { algorithm: 'ES256', leaf: keyLeaves.p256 },
      { algorithm: 'ES384', leaf: keyLeaves.p384 },
    ] as const
    for (const { algorithm, leaf } of joseCases) {
      it(`verifies a ${algorithm} signature made by jose and refuses it for other data`, async () => {
        const backend = context.backend()
        const key = await importPKCS8(leaf.privateKeyPkcs8Pem, algorithm)
        const jws = await new CompactSign(new TextEncoder().encode('contract'))
          .setProtectedHeader({ alg: algorithm })
          .sign(key)
        const [header, payload, encodedSignature] = jws.split('.')
        const signature = base64UrlDecode(encodedSignature ?? '') ?? new Uint8Array()
        const data = new TextEncoder().encode(`${header}.${payload}`)
        const publicKeySpki = (await backend.parseCertificate(leaf.certificatePem)).publicKeySpki
        expect(await backend.verifySignature({ algorithm, publicKeySpki, data, signature })).toBe(
          true,
        )
        const otherData = new TextEncoder().encode(`${header}.${payload}x`)
        expect(
          await backend.verifySignature({ algorithm, publicKeySpki, data: otherData, signature }),
        ).toBe(false)
      })
    }

    it('refuses a malformed public key with CryptoError invalid-key', async () => {
      const data = new TextEncoder().encode('contract')
      await cryptoRejection(
        () =>
          context.backend().verifySignature({
            algorithm: 'RS256',
            publicKeySpki: new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]),
            data,
            signature: new Uint8Array(256),
          }),
        'invalid-key',
      )
    })

    it('returns false for a signature made by another key', async () => {
      const backend = context.backend()
      const signer = await backend.importSigner(testPki.leaves.revoked.privateKeyPkcs8Pem, {
        profile: 'udap',
      })
      const data = new TextEncoder().encode('contract')
      const signature = await signer.sign(data)
      const publicKeySpki = (await backend.parseCertificate(keyLeaves.rsa.certificateDer))
        .publicKeySpki
      expect(
        await backend.verifySignature({ algorithm: 'RS256', publicKeySpki, data, signature }),
      ).toBe(false)
    })
  })
}
