import type { OnlineRevocation } from '../x509/revocation-online/online-revocation.js'
import type { KeyProfile } from './algorithms.js'
import type { CertificateInfo } from './certificate-info.js'
import type { CryptoKeyLike, Jwk, KeyObjectLike } from './jwk.js'
import type { SignatureCheck, VerificationAlgorithm } from './signature-check.js'
import type { JwsSigner } from './signer.js'

// The contract's vocabulary is declared below it, in modules the X.509 and algorithm code reads
// too: that code is below this contract, whose `revocation` option reaches it (ADR 0015).
export type { CertificateInfo, KeyProfile, SignatureCheck, VerificationAlgorithm }

/**
 * A private key in any form the library accepts: PEM text (PKCS#8, PKCS#1 RSA, SEC1 EC), a
 * private JWK, a WebCrypto `CryptoKey`, a Node `KeyObject` (crypto-node only), or a ready
 * {@link JwsSigner} (HSM/KMS), which is used as it is.
 */
export type PrivateKeyInput = string | Jwk | CryptoKeyLike | KeyObjectLike | JwsSigner

/** A certificate as PEM text, DER bytes, or the backend's native certificate object. */
export type CertificateInput = string | Uint8Array | object

/** A certificate revocation list as PEM text or DER bytes. */
export type CrlInput = string | Uint8Array

/** Options of {@link CryptoBackend.importSigner}. */
export interface ImportSignerOptions {
  readonly profile: KeyProfile
  /**
   * An explicit algorithm (the config's `jwtAlgorithm`). It must be allowed by the profile
   * and makeable with the key, else a `ConfigurationError` on `jwtAlgorithm` lists the ones
   * that would work.
   */
  readonly algorithm?: string | undefined
  /** Algorithms the server advertises; the choice is intersected with them (UDAP). */
  readonly advertisedAlgorithms?: readonly string[] | undefined
  readonly kid?: string | undefined
  /** DER certificates, leaf first, attached to the signer for the `x5c` header. */
  readonly certificateChain?: readonly Uint8Array[] | undefined
}

/** Input of {@link CryptoBackend.verifyCertificateChain}. Time and trust are always explicit. */
export interface VerifyCertificateChainParams {
  /**
   * Leaf first, then its issuer, and so on (the `x5c` order). A PEM entry may hold several
   * certificates: every block is read, in order (as in all three lists).
   */
  readonly chain: readonly CertificateInput[]
  readonly trustAnchors: readonly CertificateInput[]
  /** CRLs; every CA in the path below the anchor must have a current one (fail closed). */
  readonly crls: readonly CrlInput[]
  readonly at: Date
  /**
   * Revocation looked up online (`createOnlineRevocation` from `@fhir-auth/core/revocation`) for a
   * certificate that has no CRL from its issuer in `crls`: its CRL distribution points. Without
   * it such a certificate is `crl-missing`; with it, `revocation-unavailable` when no source
   * answers.
   */
  readonly revocation?: OnlineRevocation | undefined
}

/** A chain that validated: the leaf, and the path from leaf to trust anchor inclusive. */
export interface VerifiedCertificateChain {
  readonly leaf: CertificateInfo
  readonly path: readonly CertificateInfo[]
}

/** What {@link CryptoBackend.loadPkcs12} returns. */
export interface Pkcs12Contents {
  /** The private key, in a form this backend's `importSigner` accepts. */
  readonly privateKey: PrivateKeyInput
  /** DER certificates, leaf (the one matching the key) first, then issuers in order. */
  readonly certificateChain: readonly Uint8Array[]
}

/**
 * The crypto a fhir-auth client needs, implemented by `@fhir-auth/crypto-node` and
 * `@fhir-auth/crypto-webcrypto`; both pass one contract suite. Every method rejects with a
 * typed `CryptoError`, `CertificateChainError` or `ConfigurationError`, never a raw one.
 * Build a backend of your own from `@fhir-auth/core/backend` and run the contract suite on it.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/crypto-backends.md
 */
export interface CryptoBackend {
  /** `'node'`, `'webcrypto'`, or a custom backend's name. */
  readonly name: string
  /**
   * The version of this contract the backend implements: `cryptoBackendSpecificationVersion`
   * (1) from `@fhir-auth/core/backend`. A backend without it is taken as version 1 (it was
   * written before the field existed); one of another version is refused with a
   * `ConfigurationError` on `crypto`.
   */
  readonly specificationVersion?: 1 | undefined
  /** Turns a private key into a signer, choosing the algorithm by profile, key and server. */
  importSigner(key: PrivateKeyInput, options: ImportSignerOptions): Promise<JwsSigner>
  /** Parses a certificate from PEM, DER or the backend's native object. */
  parseCertificate(certificate: CertificateInput): Promise<CertificateInfo>
  /** True when the private key belongs to the certificate's public key. */
  keyMatchesCertificate(key: PrivateKeyInput, certificate: CertificateInput): Promise<boolean>
  /** Validates a leaf-first chain; rejects with `CertificateChainError` and its `reason`. */
  verifyCertificateChain(params: VerifyCertificateChainParams): Promise<VerifiedCertificateChain>
  /** Opens a PKCS#12 file; rejects with `CryptoError` (`pkcs12-*` reasons). */
  loadPkcs12(data: Uint8Array, password: string): Promise<Pkcs12Contents>
  /** Verifies one signature with a public key; false when it does not verify. */
  verifySignature(check: SignatureCheck): Promise<boolean>
}
