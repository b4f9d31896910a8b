import { bytesEqual } from '../crypto/bytes.js'
import type { CertificateChainFailureReason } from '../errors/crypto-error.js'
import type { ParsedCertificate } from './certificate.js'
import type { ParsedCrl } from './crl.js'
import { crlCovers } from './crl-scope.js'
import { describeKeyUsage, keyUsageAllows } from './key-usage.js'
import { isSignedBy, type SignatureVerifier } from './signed-by.js'

/**
 * What a set of CRLs says about one certificate: `good` (a usable CRL does not list it),
 * `revoked`, or `unusable` with the reason no CRL can decide and the certificate that reason
 * is about (the certificate, or its issuer for a missing `cRLSign`).
 */
export type CrlStatus =
  | { readonly status: 'good' }
  | { readonly status: 'revoked'; readonly message: string }
  | {
      readonly status: 'unusable'
      readonly reason: CertificateChainFailureReason
      readonly message: string
      readonly certificate: ParsedCertificate
    }

/**
 * Judges `crls` for `certificate` (issued by `issuer`) at `at`, in this order, the first
 * failure winning: a CRL issued under the certificate's issuer name (`crl-missing`), an issuer
 * whose keyUsage, when present, has `cRLSign` (`key-usage`), a CRL that verifies with the
 * issuer's key (`crl-bad-signature`), whose authorityKeyIdentifier (when both it and the
 * issuer's subjectKeyIdentifier are present) names the issuer's key (`crl-missing`), without a
 * critical extension the policy does not
 * understand (`unknown-critical-extension`), covering the certificate (`crl-missing`), current
 * at `at` (`crl-stale`); then `revoked` when a current one lists the serial number.
 *
 * Only CRLs issued and signed by the certificate's own issuer count: indirect CRLs and separate
 * CRL-signing keys are not supported.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.3
 */
export async function crlStatus(
  certificate: ParsedCertificate,
  issuer: ParsedCertificate,
  crls: readonly ParsedCrl[],
  at: Date,
  verifies: SignatureVerifier,
): Promise<CrlStatus> {
  const unusable = (
    reason: CertificateChainFailureReason,
    message: string,
    about: ParsedCertificate = certificate,
  ): CrlStatus => ({ status: 'unusable', reason, message, certificate: about })
  const fromIssuer = crls.filter((crl) => bytesEqual(crl.issuerDer, certificate.issuerDer))
  if (fromIssuer.length === 0) {
    return unusable(
      'crl-missing',
      `no CRL from "${certificate.issuer}" was supplied to check certificate "${certificate.subject}" (revocation checking is required)`,
    )
  }
  if (issuer.keyUsage !== undefined && !keyUsageAllows(issuer.keyUsage, 'cRLSign')) {
    return unusable(
      'key-usage',
      `"${issuer.subject}" issues the CRLs for "${certificate.subject}" but its keyUsage (${describeKeyUsage(issuer.keyUsage)}) lacks cRLSign`,
      issuer,
    )
  }
  const verified: ParsedCrl[] = []
  for (const crl of fromIssuer) {
    if (await isSignedBy(crl, issuer, verifies)) verified.push(crl)
  }
  if (verified.length === 0) {
    return unusable(
      'crl-bad-signature',
      `no CRL from "${certificate.issuer}" has a signature that verifies with that issuer's key`,
    )
  }
  // RFC 5280 §5.2.1: a CRL whose authorityKeyIdentifier names another key speaks for that key's
  // certificates, not this one's (OpenSSL does not use it either).
  const forThisKey = verified.filter((crl) => namesKeyOf(crl, issuer))
  if (forThisKey.length === 0) {
    return unusable(
      'crl-missing',
      `no CRL from "${certificate.issuer}" names the key that issued certificate "${certificate.subject}" (their authorityKeyIdentifier names another key)`,
    )
  }
  const usable = forThisKey.filter((crl) => crl.unrecognizedCriticalExtensions.length === 0)
  if (usable.length === 0) {
    return unusable(
      'unknown-critical-extension',
      `the CRL from "${certificate.issuer}" has the critical extension ${forThisKey[0]?.unrecognizedCriticalExtensions[0]}, which is not understood, so it cannot decide the status of "${certificate.subject}" (RFC 5280 §5.2)`,
    )
  }
  const covering = usable.filter((crl) => crlCovers(crl.scope, certificate))
  if (covering.length === 0) {
    return unusable(
      'crl-missing',
      `no CRL from "${certificate.issuer}" covers certificate "${certificate.subject}": their issuingDistributionPoint limits them to other certificates, some reasons or another distribution point`,
    )
  }
  const current = covering.filter((crl) => isCurrent(crl, at))
  if (current.length === 0) {
    const newest = covering.reduce((latest, crl) =>
      crl.thisUpdate > latest.thisUpdate ? crl : latest,
    )
    return unusable(
      'crl-stale',
      `the CRL from "${certificate.issuer}" is not current at ${at.toISOString()} (thisUpdate ${newest.thisUpdate.toISOString()}, nextUpdate ${newest.nextUpdate?.toISOString() ?? 'none'})`,
    )
  }
  if (current.some((crl) => crl.revokedSerialNumbers.has(certificate.serialNumber))) {
    return {
      status: 'revoked',
      message: `certificate "${certificate.subject}" (serial ${certificate.serialNumber}) is revoked by "${certificate.issuer}"`,
    }
  }
  return { status: 'good' }
}

/** `thisUpdate ≤ at ≤ nextUpdate` (a CRL without nextUpdate never goes stale). */
export function isCurrent(crl: ParsedCrl, at: Date): boolean {
  return (
    crl.thisUpdate.getTime() <= at.getTime() &&
    (crl.nextUpdate === undefined || at.getTime() <= crl.nextUpdate.getTime())
  )
}

/** False only when both key identifiers are known and differ. */
function namesKeyOf(crl: ParsedCrl, issuer: ParsedCertificate): boolean {
  return (
    crl.authorityKeyIdentifier === undefined ||
    issuer.subjectKeyIdentifier === undefined ||
    bytesEqual(crl.authorityKeyIdentifier, issuer.subjectKeyIdentifier)
  )
}
