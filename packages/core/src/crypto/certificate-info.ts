import type { Jwk } from './jwk.js'

// Part of the `CryptoBackend` contract, which re-exports it; declared here, below the X.509 code
// that reads it too (ADR 0015).

/** What the library needs to know about one X.509 certificate. */
export interface CertificateInfo {
  readonly der: Uint8Array
  /** Distinguished name, RFC 4514 string form (for messages; compare `der` fields for trust). */
  readonly subject: string
  readonly issuer: string
  /**
   * Serial number as lowercase hex without leading zero bytes; a negative one (RFC 5280 forbids
   * them, some CAs issued them) as `-` and the hex of its absolute value, as OpenSSL prints it.
   */
  readonly serialNumber: string
  readonly notBefore: Date
  readonly notAfter: Date
  /** `uniformResourceIdentifier` subject alternative names, exact strings as encoded. */
  readonly subjectAltNameUris: readonly string[]
  /** DER SubjectPublicKeyInfo, for {@link CryptoBackend.verifySignature}. */
  readonly publicKeySpki: Uint8Array
  /** The public key as a JWK (verification with jose or any JOSE library). */
  readonly publicKeyJwk: Jwk
  /** basicConstraints cA = true. */
  readonly isCertificateAuthority: boolean
}
