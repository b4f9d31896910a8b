import { createPublicKey, type KeyObject } from 'node:crypto'
import {
  type CertificateInfo,
  isJwsSigner,
  type JwsSigner,
  randomBytes,
  type VerificationAlgorithm,
} from '@fhir-auth/core'
import { type BoundedCache, signWithJwsSigner } from '@fhir-auth/core/backend'
import { resolvePrivateKey } from './private-key-input.js'
import { publicKeyFromSpki, verifyNodeSignature } from './verify-signature.js'

/**
 * `CryptoBackend.keyMatchesCertificate`: true when the private key belongs to the certificate's
 * public key.
 *
 * For a key, the public half is derived and compared with the certificate's key
 * (`KeyObject.equals`, so encoding details of the SubjectPublicKeyInfo do not matter). For a
 * {@link JwsSigner}, whose key is out of reach (HSM, KMS), a random probe is signed and
 * verified with the certificate's key.
 *
 * @throws CryptoError `invalid-key` for an unreadable key; `invalid-signature` when a signer
 *   fails or returns malformed bytes.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 * @internal
 */
export async function keyMatchesNodeCertificate(
  key: unknown,
  certificate: CertificateInfo,
  publicKeys: BoundedCache<KeyObject>,
): Promise<boolean> {
  if (isJwsSigner(key)) return signerMatches(key, certificate, publicKeys)
  const { keyObject } = resolvePrivateKey(key)
  const certificateKey = publicKeyFromSpki(certificate.publicKeySpki, publicKeys)
  // Node 20's `KeyObject.equals` on keys of different types (RSA vs EC) leaves an OpenSSL
  // error queued, and the next unrelated `createPrivateKey` then fails with
  // ERR_OSSL_EVP_DIFFERENT_KEY_TYPES: compare the types first.
  if (keyObject.asymmetricKeyType !== certificateKey.asymmetricKeyType) return false
  return createPublicKey(keyObject).equals(certificateKey)
}

async function signerMatches(
  signer: JwsSigner,
  certificate: CertificateInfo,
  publicKeys: BoundedCache<KeyObject>,
): Promise<boolean> {
  const probe = randomBytes(32)
  return verifyNodeSignature(
    {
      algorithm: signer.alg as VerificationAlgorithm,
      publicKeySpki: certificate.publicKeySpki,
      data: probe,
      signature: await signWithJwsSigner(signer, probe),
    },
    publicKeys,
  )
}
