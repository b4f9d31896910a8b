import type { SignatureCheck } from '../crypto/signature-check.js'
import type { ParsedCertificate } from './certificate.js'
import { signatureForIssuerKey } from './signature-value.js'

/**
 * Verifies one signature; a backend's `verifySignature`. Resolves `false` for a signature that
 * does not verify. A rejection is treated like `false` (fail closed).
 */
export type SignatureVerifier = (check: SignatureCheck) => Promise<boolean>

/** Anything signed the X.509 way: the signed bytes, the algorithm and the JOSE-form signature. */
export interface SignedBytes {
  readonly tbs: Uint8Array
  readonly signatureAlgorithm: SignatureCheck['algorithm'] | undefined
  readonly signature: Uint8Array
}

/**
 * True when `signed` (a certificate, a CRL, an OCSP response) verifies with the public key of
 * `signer`; false for an unsupported algorithm or an empty signature.
 */
export async function isSignedBy(
  signed: SignedBytes,
  signer: ParsedCertificate,
  verifies: SignatureVerifier,
): Promise<boolean> {
  if (signed.signatureAlgorithm === undefined || signed.signature.length === 0) return false
  return verifies({
    algorithm: signed.signatureAlgorithm,
    publicKeySpki: signer.publicKeySpki,
    data: signed.tbs,
    signature: signatureForIssuerKey(signed.signature, signer.publicKey),
  })
}
