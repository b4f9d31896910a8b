/**
 * Example: a custom `JwsSigner` on a non-extractable WebCrypto key.
 *
 * A browser app can generate its signing key with `extractable: false` and keep the `CryptoKey`
 * in IndexedDB: script on the page can sign with it but can never read the private key. The
 * signer below is all fhir-auth needs from such a key; `createWebCryptoBackend().importSigner`
 * also accepts the `CryptoKey` directly and builds an equivalent signer.
 *
 * @example
 * ```ts
 * // Once, at registration (browser):
 * const { privateKey, publicKey } = await crypto.subtle.generateKey(
 *   { name: 'ECDSA', namedCurve: 'P-384' }, false, ['sign', 'verify'])
 * const publicJwk = await crypto.subtle.exportKey('jwk', publicKey) // publish in your JWKS
 * // Every time:
 * const signer = createEs384Signer(privateKey, 'my-key-1')
 * ```
 */
import { CryptoError, type JwsSigner } from '@fhir-auth/core'

/**
 * Wraps a non-extractable ECDSA P-384 private key as an ES384 `JwsSigner` (the algorithm SMART
 * asymmetric clients use for EC keys). WebCrypto's ECDSA output is already JOSE `r‖s`.
 *
 * @throws CryptoError `unsupported-key` for any other key.
 */
export function createEs384Signer(privateKey: CryptoKey, kid: string): JwsSigner {
  const algorithm = privateKey.algorithm as EcKeyAlgorithm
  if (
    privateKey.type !== 'private' ||
    algorithm.name !== 'ECDSA' ||
    algorithm.namedCurve !== 'P-384'
  ) {
    throw new CryptoError('unsupported-key', 'createEs384Signer needs an ECDSA P-384 private key')
  }
  return {
    alg: 'ES384',
    kid,
    async sign(signingInput) {
      const signature = await crypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-384' },
        privateKey,
        new Uint8Array(signingInput),
      )
      return new Uint8Array(signature)
    },
  }
}
