// Part of the `CryptoBackend` contract, which re-exports it; declared here, below the X.509 code
// that reads it too (ADR 0015).

/**
 * Signature schemes a backend verifies. `RS*` = RSASSA-PKCS1-v1_5, `PS*` = RSASSA-PSS (salt
 * length = hash length), `ES*` = ECDSA with that hash on the curve the key names.
 */
export type VerificationAlgorithm =
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'

/** Input of {@link CryptoBackend.verifySignature}. */
export interface SignatureCheck {
  readonly algorithm: VerificationAlgorithm
  /** DER SubjectPublicKeyInfo of the signer. */
  readonly publicKeySpki: Uint8Array
  readonly data: Uint8Array
  /** ECDSA signatures are JOSE `r‖s`; core converts X.509's DER form before calling. */
  readonly signature: Uint8Array
}
