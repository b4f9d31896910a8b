import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/**
 * Why a key, signature, certificate or PKCS#12 operation failed.
 *
 * - `invalid-key`: the key could not be read (garbage PEM, truncated DER, a public key where a
 *   private one is needed);
 * - `unsupported-key`: a key type or curve the profile does not allow (SMART: RSA or P-384);
 * - `algorithm-mismatch`: the requested algorithm cannot be made with this key;
 * - `no-common-algorithm`: none of the server's advertised algorithms fits the key;
 * - `invalid-certificate` / `invalid-crl`: not parseable as X.509 / a CRL;
 * - `key-certificate-mismatch`: the private key does not belong to the leaf certificate;
 * - `invalid-signature`: a signature did not verify or a signer returned malformed bytes;
 * - `pkcs12-password`: wrong PKCS#12 password or corrupted MAC;
 * - `pkcs12-unsupported-encryption`: a PKCS#12 encryption this backend cannot decrypt;
 * - `pkcs12-invalid`: the file is not a usable PKCS#12 (no key, no certificate, bad structure).
 */
export type CryptoErrorReason =
  | 'invalid-key'
  | 'unsupported-key'
  | 'algorithm-mismatch'
  | 'no-common-algorithm'
  | 'invalid-certificate'
  | 'invalid-crl'
  | 'key-certificate-mismatch'
  | 'invalid-signature'
  | 'pkcs12-password'
  | 'pkcs12-unsupported-encryption'
  | 'pkcs12-invalid'

/** A key, signature, certificate or PKCS#12 problem; `reason` says which. */
export class CryptoError extends FhirAuthError {
  static override readonly code = 'ERR_CRYPTO' as const
  readonly code = CryptoError.code
  override readonly name = 'CryptoError'
  readonly reason: CryptoErrorReason

  constructor(reason: CryptoErrorReason, message: string, options?: FhirAuthErrorOptions) {
    super(message, options)
    this.reason = reason
  }
}

/**
 * Why a certificate chain was refused. Revocation is required: a CA in the path without a
 * CRL gives `crl-missing` (fail closed).
 *
 * - `key-usage`: a certificate's keyUsage forbids its role: a CA without `keyCertSign`, a CRL
 *   issuer without `cRLSign`, a leaf without `digitalSignature` (each only when the extension
 *   is present);
 * - `path-length`: more CAs below a CA than its `basicConstraints.pathLenConstraint` allows;
 * - `name-constraints`: a name (URI, DNS, email, IP or directory name) outside a CA's permitted
 *   subtrees or inside its excluded ones, or one that cannot be checked against them;
 * - `unknown-critical-extension`: a critical extension the policy does not understand, on a
 *   certificate of the path or on the only usable CRL (critical key identifiers and a critical
 *   cRLNumber count as such, as in OpenSSL);
 * - `malformed`: a certificate of the path breaks the RFC 5280 profile that
 *   `openssl verify -x509_strict` enforces: no authorityKeyIdentifier below the top of the path,
 *   a CA without a subjectKeyIdentifier, an empty issuer, or an empty subject without a
 *   critical subjectAltName. (A CA whose basicConstraints is not critical is `not-a-ca`, a
 *   path length or keyCertSign without cA `path-length` or `key-usage`, an authorityKeyIdentifier
 *   that names another key than the next certificate's `no-path`.)
 * - `revocation-unavailable`: revocation information was looked for online (CRL distribution
 *   points) and none answered: unreachable, stale, badly signed, or only `ldap:`/`file:` points
 *   (fail closed).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/udap.md#certificate-paths
 */
export type CertificateChainFailureReason =
  | 'untrusted'
  | 'expired'
  | 'not-yet-valid'
  | 'revoked'
  | 'bad-signature'
  | 'no-path'
  | 'crl-missing'
  | 'crl-stale'
  | 'crl-bad-signature'
  | 'revocation-unavailable'
  | 'order'
  | 'not-a-ca'
  | 'key-usage'
  | 'path-length'
  | 'name-constraints'
  | 'unknown-critical-extension'
  | 'malformed'

/** A certificate chain failed validation; `reason` says why, `subject` names the certificate. */
export class CertificateChainError extends FhirAuthError {
  static override readonly code = 'ERR_CERTIFICATE_CHAIN' as const
  readonly code = CertificateChainError.code
  override readonly name = 'CertificateChainError'
  readonly reason: CertificateChainFailureReason
  /** Subject of the certificate the failure is about, when one is known. */
  readonly subject: string | undefined

  constructor(
    reason: CertificateChainFailureReason,
    message: string,
    subject?: string,
    options?: FhirAuthErrorOptions,
  ) {
    super(message, options)
    this.reason = reason
    this.subject = subject
  }
}
