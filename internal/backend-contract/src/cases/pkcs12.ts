import type { PrivateKeyInput } from '@fhir-auth/core'
import { type TestLeaf, testPki } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import { cryptoRejection, expectNoSecret } from '../support/errors.js'
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

    it('refuses a file truncated anywhere with CryptoError pkcs12-invalid, without the password', async () => {
      for (const leaf of [keyLeaves.rsa, keyLeaves.p256, keyLeaves.p384]) {
        const length = leaf.pkcs12.length
        for (const kept of [1, 16, 100, Math.floor(length / 2), length - 40, length - 1]) {
          const error = await cryptoRejection(
            () => context.backend().loadPkcs12(leaf.pkcs12.subarray(0, kept), leaf.pkcs12Password),
            'pkcs12-invalid',
          )
          expectNoSecret(error, [leaf.pkcs12Password])
        }
      }
    })

    it('refuses a file corrupted in its protected contents with pkcs12-password (the MAC), on every backend', async () => {
      // From byte 200 on, a flipped byte lies in the MAC-protected contents or the MAC itself:
      // each backend checks the MAC before it decrypts, and names the password or the damage.
      for (const leaf of [keyLeaves.rsa, keyLeaves.p256]) {
        const length = leaf.pkcs12.length
        for (const at of [200, Math.floor(length / 2), length - 40, length - 1]) {
          const corrupted = new Uint8Array(leaf.pkcs12)
          corrupted[at] = (corrupted[at] ?? 0) ^ 0x55
          const error = await cryptoRejection(
            () => context.backend().loadPkcs12(corrupted, leaf.pkcs12Password),
            'pkcs12-password',
          )
          expectNoSecret(error, [leaf.pkcs12Password])
        }
      }
    })

    it('refuses a password that is not a string with CryptoError pkcs12-password, showing none of it', async () => {
      const leaf = keyLeaves.p256
      const password = leaf.pkcs12Password
      // A JavaScript caller can pass anything; the right password inside an object is still a secret.
      for (const wrongType of [
        42,
        null,
        undefined,
        { password },
        [password],
        new String(password),
      ]) {
        const error = await cryptoRejection(
          () => context.backend().loadPkcs12(leaf.pkcs12, wrongType as unknown as string),
          'pkcs12-password',
        )
        expectNoSecret(error, [password])
      }
    })

    it('refuses a 1 MiB password with CryptoError pkcs12-password, quoting none of it', async () => {
      const marker = 'huge-password-marker-5c1e'
      const huge = `${marker}${'p'.repeat(1_048_576 - marker.length)}`
      const error = await cryptoRejection(
        () => context.backend().loadPkcs12(keyLeaves.p256.pkcs12, huge),
        'pkcs12-password',
      )
      expectNoSecret(error, [marker, 'p'.repeat(64)])
      expect(error.message.length).toBeLessThan(500)
    })
  })
}
