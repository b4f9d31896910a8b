import { bytesEqual } from '../crypto/bytes.js'
import type { ParsedCertificate } from './certificate.js'
import { failChain } from './chain-failure.js'
import { keyUsageAllows } from './key-usage.js'

const basicConstraintsOid = '2.5.29.19'
const subjectAltNameOid = '2.5.29.17'

/** DER of an empty Name (`SEQUENCE {}`). */
const emptyNameLength = 2

/**
 * The RFC 5280 certificate profile rules that `openssl verify -x509_strict` enforces on every
 * certificate of a path, anchor included, when the path has more than one certificate (a lone
 * self-signed certificate is judged by trust alone, as in OpenSSL). The first failure wins,
 * leaf first:
 *
 * - a `pathLenConstraint` without cA (`path-length`, RFC 5280 §4.2.1.9) and `keyCertSign`
 *   without cA (`key-usage`, §4.2.1.3);
 * - an empty issuer name, and an empty subject on a CA, a CRL issuer, a certificate without
 *   subjectAltName or one whose subjectAltName is not critical (`malformed`, §4.1.2.4, §4.1.2.6,
 *   §4.2.1.6);
 * - a CA whose basicConstraints is not critical (`not-a-ca`, §4.2.1.9);
 * - a v3 certificate below the top of the path without an authorityKeyIdentifier
 *   `keyIdentifier` (`malformed`, §4.2.1.1) and a CA without a subjectKeyIdentifier
 *   (`malformed`, §4.2.1.2);
 * - an authorityKeyIdentifier naming another key than its issuer's subjectKeyIdentifier: that
 *   certificate is not the issuer, so the path lacks one (`no-path`, §4.2.1.1).
 *
 * Critical key identifiers are refused as unknown critical extensions (see
 * `understoodExtensions`), as OpenSSL does.
 *
 * @param path - leaf first, each certificate followed by its issuer.
 * @throws CertificateChainError with the reason above, naming the certificate at fault.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4
 */
export function checkProfileRules(path: readonly ParsedCertificate[]): void {
  if (path.length < 2) return
  for (const [index, certificate] of path.entries()) {
    checkCertificateProfile(certificate)
    const issuer = path[index + 1]
    if (issuer !== undefined) checkKeyIdentifierLink(certificate, issuer)
  }
}

function checkCertificateProfile(certificate: ParsedCertificate): void {
  const { subject, isCertificateAuthority: isCa, keyUsage } = certificate
  const critical = new Set(certificate.criticalExtensions)
  if (!isCa && certificate.pathLengthConstraint !== undefined) {
    failChain(
      'path-length',
      `certificate "${subject}" is no CA but has a basicConstraints pathLenConstraint (RFC 5280 §4.2.1.9)`,
      certificate,
    )
  }
  if (!isCa && keyUsage !== undefined && keyUsageAllows(keyUsage, 'keyCertSign')) {
    failChain(
      'key-usage',
      `certificate "${subject}" is no CA but its keyUsage has keyCertSign (RFC 5280 §4.2.1.3)`,
      certificate,
    )
  }
  if (certificate.issuerDer.length === emptyNameLength) {
    failChain(
      'malformed',
      `certificate "${subject}" has an empty issuer name (RFC 5280 §4.1.2.4)`,
      certificate,
    )
  }
  if (certificate.subjectDer.length === emptyNameLength) checkEmptySubject(certificate, critical)
  if (isCa && !critical.has(basicConstraintsOid)) {
    failChain(
      'not-a-ca',
      `CA certificate "${subject}" does not mark basicConstraints critical (RFC 5280 §4.2.1.9)`,
      certificate,
    )
  }
  if (isCa && certificate.subjectKeyIdentifier === undefined) {
    failChain(
      'malformed',
      `CA certificate "${subject}" has no subjectKeyIdentifier (RFC 5280 §4.2.1.2)`,
      certificate,
    )
  }
}

/** RFC 5280 §4.1.2.6 and §4.2.1.6: an empty subject only on an end entity with a critical SAN. */
function checkEmptySubject(certificate: ParsedCertificate, critical: ReadonlySet<string>): void {
  const crlIssuer =
    certificate.keyUsage !== undefined && keyUsageAllows(certificate.keyUsage, 'cRLSign')
  if (
    certificate.isCertificateAuthority ||
    crlIssuer ||
    certificate.subjectAltNames.length === 0 ||
    !critical.has(subjectAltNameOid)
  ) {
    failChain(
      'malformed',
      `a certificate issued by "${certificate.issuer}" has an empty subject, which only an end-entity certificate with a critical subjectAltName may have (RFC 5280 §4.1.2.6)`,
      certificate,
    )
  }
}

function checkKeyIdentifierLink(certificate: ParsedCertificate, issuer: ParsedCertificate): void {
  const keyIdentifier = certificate.authorityKeyIdentifier
  if (keyIdentifier === undefined) {
    if (certificate.version < 3) return
    failChain(
      'malformed',
      `certificate "${certificate.subject}" has no authorityKeyIdentifier keyIdentifier (RFC 5280 §4.2.1.1)`,
      certificate,
    )
  }
  const issuerKey = issuer.subjectKeyIdentifier
  if (issuerKey !== undefined && !bytesEqual(keyIdentifier, issuerKey)) {
    failChain(
      'no-path',
      `the authorityKeyIdentifier of certificate "${certificate.subject}" names another key than the subjectKeyIdentifier of "${issuer.subject}", so no issuer of it is in the path`,
      certificate,
    )
  }
}
