import type { JwsSigner, PrivateKeyInput } from '@fhir-auth/core'
import { testPki } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import {
  cryptoRejection,
  expectNoSecret,
  jwtAlgorithmRejection,
  rejection,
} from '../support/errors.js'
import { signAndVerifyWithJose } from '../support/jose-verification.js'
import { algorithmCases, keyLeaves, privateJwkOf } from '../support/leaf-keys.js'

/** Every private key form a backend must accept, and the ones it must refuse with typed errors. */
export function describeKeyImport(context: ContractContext): void {
  describe('key import', () => {
    for (const { algorithm, leaf, profile } of algorithmCases) {
      const traditional = leaf.privateKeyTraditionalFormat === 'pkcs1' ? 'PKCS#1' : 'SEC1'
      it(`imports a ${traditional} PEM key for ${algorithm}`, async () => {
        expect(leaf.privateKeyTraditionalPem).toContain(
          leaf.privateKeyTraditionalFormat === 'pkcs1' ? 'RSA PRIVATE KEY' : 'EC PRIVATE KEY',
        )
        const signer = await context
          .backend()
          .importSigner(leaf.privateKeyTraditionalPem, { profile, algorithm })
        await signAndVerifyWithJose(signer, leaf.certificatePem, algorithm)
      })

      it(`imports a private JWK for ${algorithm}`, async () => {
        const jwk = await privateJwkOf(leaf, algorithm)
        const signer = await context.backend().importSigner(jwk, { profile, algorithm })
        await signAndVerifyWithJose(signer, leaf.certificatePem, algorithm)
      })

      for (const form of context.options.extraKeyForms ?? []) {
        it(`imports a ${form.name} for ${algorithm}`, async () => {
          const key = await form.create({
            pkcs8Pem: leaf.privateKeyPkcs8Pem,
            keyType: leaf.keyType,
            algorithm,
          })
          const signer = await context.backend().importSigner(key, { profile, algorithm })
          await signAndVerifyWithJose(signer, leaf.certificatePem, algorithm)
        })
      }
    }

    it('uses a ready JwsSigner as it is: its algorithm, its sign function', async () => {
      const backend = context.backend()
      const inner = await backend.importSigner(keyLeaves.p256.privateKeyPkcs8Pem, {
        profile: 'udap',
      })
      let calls = 0
      const custom: JwsSigner = {
        alg: 'ES256',
        sign: async (input) => {
          calls++
          return inner.sign(input)
        },
      }
      const signer = await backend.importSigner(custom, { profile: 'udap' })
      await signAndVerifyWithJose(signer, keyLeaves.p256.certificatePem, 'ES256')
      expect(calls).toBe(1)
    })

    it('refuses a JwsSigner whose algorithm differs from the explicit one (ConfigurationError jwtAlgorithm)', async () => {
      const backend = context.backend()
      const inner = await backend.importSigner(keyLeaves.p256.privateKeyPkcs8Pem, {
        profile: 'udap',
      })
      await jwtAlgorithmRejection(() =>
        backend.importSigner(inner, { profile: 'udap', algorithm: 'RS256' }),
      )
    })

    it('refuses an encrypted PEM key with CryptoError invalid-key', async () => {
      const error = await cryptoRejection(
        () => context.backend().importSigner(testPki.encryptedPrivateKey.pem, { profile: 'udap' }),
        'invalid-key',
      )
      expect(error.message.toLowerCase()).toContain('encrypted')
    })

    it('refuses text that is not a PEM private key with CryptoError invalid-key', async () => {
      const backend = context.backend()
      await cryptoRejection(
        () => backend.importSigner('not a key', { profile: 'udap' }),
        'invalid-key',
      )
      await cryptoRejection(
        () => backend.importSigner(keyLeaves.rsa.certificatePem, { profile: 'udap' }),
        'invalid-key',
      )
    })

    it('refuses a damaged PEM key without putting key material in the error', async () => {
      const pem = keyLeaves.rsa.privateKeyPkcs8Pem
      const lines = pem.split('\n')
      const middle = Math.floor(lines.length / 2)
      const damaged = [
        ...lines.slice(0, middle),
        `${(lines[middle] ?? '').slice(0, 10)}!${(lines[middle] ?? '').slice(11)}`,
        ...lines.slice(middle + 1),
      ].join('\n')
      const error = await cryptoRejection(
        () => context.backend().importSigner(damaged, { profile: 'udap' }),
        'invalid-key',
      )
      expectNoSecret(
        error,
        lines.slice(1, -2).filter((line) => line.length > 20),
      )
    })

    it('refuses a public JWK where a private key is needed (CryptoError invalid-key)', async () => {
      const { d: _private, ...publicJwk } = await privateJwkOf(keyLeaves.p256, 'ES256')
      await cryptoRejection(
        () => context.backend().importSigner(publicJwk, { profile: 'udap' }),
        'invalid-key',
      )
    })

    it('refuses values of the wrong type with a typed error', async () => {
      const backend = context.backend()
      for (const value of [42, null, undefined, {}, [], new Uint8Array([1, 2, 3])]) {
        await rejection(() =>
          backend.importSigner(value as unknown as PrivateKeyInput, { profile: 'udap' }),
        )
      }
    })
  })
}
