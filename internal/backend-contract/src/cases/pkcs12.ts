import { CryptoError, type PrivateKeyInput } from '@fhir-auth/core'
import { type TestLeaf, testPki } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import { cryptoRejection, expectNoSecret, rejection } from '../support/errors.js'
import { signAndVerifyWithJose } from '../support/jose-verification.js'
import { keyLeaves } from '../support/leaf-keys.js'

/** PKCS#12 loading: both encodings, wrong passwords and broken files. */
export function describePkcs12(context: ContractContext): void {
  const expectOpened = async (
    leaf: TestLeaf,
    contents: { privateKey: PrivateKeyInput; certificateChain: readonly Uint8Array[] },
  ) => {
    const backend = context.backend()
    // Leaf first (the certificate matching the key), then its issuers in order up to the root.
    const issuers = leaf.name.startsWith('ec-')
      ? (['ec-intermediate', 'ec-root'] as const)
      : (['rsa-intermediate', 'rsa-root'] as const)
    expect(contents.certificateChain.map((der) => [...der])).toEqual(
      [leaf.certificateDer, ...issuers.map((name) => testPki.authorities[name].der)].map((der) => [
        ...der,
      ]),
    )
    expect(await backend.keyMatchesCertificate(contents.privateKey, leaf.certificateDer)).toBe(true)
    const algorithm =
      leaf.keyType === 'p384' ? 'ES384' : leaf.keyType === 'p256' ? 'ES256' : 'RS256'
    const signer = await backend.importSigner(contents.privateKey, {
      profile: 'udap',
      certificateChain: contents.certificateChain,
    })
    await signAndVerifyWithJose(signer, leaf.certificatePem, algorithm)
  }

  describe('loadPkcs12', () => {
    for (const leaf of [keyLeaves.rsa, keyLeaves.p256, keyLeaves.p384]) {
      it(`opens the PBES2/AES-256 file of ${leaf.name}: key, leaf first, issuers in order`, async () => {
        await expectOpened(
          leaf,
          await context.backend().loadPkcs12(leaf.pkcs12, leaf.pkcs12Password),
        )
      })
    }

    if (context.options.legacyPkcs12 === 'supported') {
      for (const leaf of [keyLeaves.rsa, keyLeaves.p256]) {
        it(`opens the legacy 3DES/SHA-1 file of ${leaf.name}`, async () => {
          await expectOpened(
            leaf,
            await context.backend().loadPkcs12(leaf.pkcs12Legacy, leaf.pkcs12Password),
          )
        })
      }
    } else {
      it('refuses legacy 3DES/SHA-1 files with CryptoError pkcs12-unsupported-encryption', async () => {
        const leaf = keyLeaves.rsa
        await cryptoRejection(
          () => context.backend().loadPkcs12(leaf.pkcs12Legacy, leaf.pkcs12Password),
          'pkcs12-unsupported-encryption',
        )
      })
    }

    it('refuses a wrong password with CryptoError pkcs12-password, without echoing it', async () => {
      const wrongPassword = 'wrong-password-7f3a9c'
      for (const file of [
        keyLeaves.p256.pkcs12,
        ...(context.options.legacyPkcs12 === 'supported' ? [keyLeaves.p256.pkcs12Legacy] : []),
      ]) {
        const error = await cryptoRejection(
          () => context.backend().loadPkcs12(file, wrongPassword),
          'pkcs12-password',
        )
        expectNoSecret(error, [wrongPassword])
      }
    })

    it('refuses bytes that are not PKCS#12 with CryptoError pkcs12-invalid', async () => {
      const backend = context.backend()
      await cryptoRejection(
        () => backend.loadPkcs12(new Uint8Array([1, 2, 3, 4, 5]), 'udap-test'),
        'pkcs12-invalid',
      )
      await cryptoRejection(
        () => backend.loadPkcs12(keyLeaves.rsa.certificateDer, 'udap-test'),
        'pkcs12-invalid',
      )
    })

    it('refuses a truncated file with a typed pkcs12 error', async () => {
      const leaf = keyLeaves.rsa
      const error = await rejection(() =>
        context
          .backend()
          .loadPkcs12(leaf.pkcs12.subarray(0, leaf.pkcs12.length / 2), leaf.pkcs12Password),
      )
      expect(error).toBeInstanceOf(CryptoError)
      expect(['pkcs12-invalid', 'pkcs12-password']).toContain((error as CryptoError).reason)
      expectNoSecret(error, [leaf.pkcs12Password])
    })
  })
}
