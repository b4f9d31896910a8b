import { bytesEqual } from '../crypto/bytes.js'
import type { ParsedCertificate } from './certificate.js'
import { failChain } from './chain-failure.js'
import { describeKeyUsage, keyUsageAllows } from './key-usage.js'
import { constrainedNamesOf, nameConstraintViolation } from './name-constraints.js'
import { checkProfileRules } from './profile-rules.js'

/**
 * The rules of RFC 5280 path processing that depend only on the certificates of the path, in
 * the order they are checked (the first failure wins):
 *
 * 1. no certificate has a critical extension the parser does not understand
 *    (`unknown-critical-extension`);
 * 2. every issuer has basicConstraints cA (`not-a-ca`), as OpenSSL checks before its profile
 *    rules;
 * 3. every certificate keeps the RFC 5280 profile that OpenSSL's `-x509_strict` checks, and
 *    names its issuer's key (`checkProfileRules`: `path-length`, `key-usage`, `not-a-ca`,
 *    `malformed`, `no-path`);
 * 4. every issuer whose keyUsage is present has `keyCertSign`, and the leaf's keyUsage, when
 *    present, has `digitalSignature` (`key-usage`);
 * 5. no CA has more CAs below it (self-issued ones not counted, the leaf not counted) than its
 *    `pathLenConstraint` (`path-length`);
 * 6. every name of every certificate below a CA with `nameConstraints` (its subject, subject
 *    email addresses and subjectAltNames) complies with them, except self-issued CA
 *    certificates, whose names are not checked (`name-constraints`).
 *
 * The top certificate of `path` is an issuer like the others: the trust anchor in full path
 * validation, so whatever the anchor's certificate says about itself (CA flag, key usage, path
 * length, name constraints, critical extensions) still constrains the path below it.
 *
 * @param path - leaf first, each certificate followed by its issuer; issuer names and
 *   signatures have been checked already.
 * @throws CertificateChainError with the reason above and the subject of the certificate it is
 *   about (for `path-length` the CA whose constraint is exceeded, for `name-constraints` the
 *   certificate whose name violates it).
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.1.4
 */
export function checkPathRules(path: readonly ParsedCertificate[]): void {
  checkCriticalExtensions(path)
  const issuers = path.slice(1)
  for (const issuer of issuers) {
    if (!issuer.isCertificateAuthority) {
      failChain(
        'not-a-ca',
        `certificate "${issuer.subject}" issues certificates but is not a CA (basicConstraints cA is not set)`,
        issuer,
      )
    }
  }
  checkProfileRules(path)
  checkKeyUsage(path)
  checkPathLength(path)
  checkNameConstraints(path)
}

function checkCriticalExtensions(path: readonly ParsedCertificate[]): void {
  for (const certificate of path) {
    const [oid] = certificate.unrecognizedCriticalExtensions
    if (oid !== undefined) {
      failChain(
        'unknown-critical-extension',
        `certificate "${certificate.subject}" has the critical extension ${oid}, which is not understood (RFC 5280 §4.2: such a certificate must be rejected)`,
        certificate,
      )
    }
  }
}

function checkKeyUsage(path: readonly ParsedCertificate[]): void {
  for (const issuer of path.slice(1)) {
    if (issuer.keyUsage !== undefined && !keyUsageAllows(issuer.keyUsage, 'keyCertSign')) {
      failChain(
        'key-usage',
        `CA certificate "${issuer.subject}" issues certificates but its keyUsage (${describeKeyUsage(issuer.keyUsage)}) lacks keyCertSign`,
        issuer,
      )
    }
  }
  const leaf = path[0]
  if (leaf?.keyUsage !== undefined && !keyUsageAllows(leaf.keyUsage, 'digitalSignature')) {
    failChain(
      'key-usage',
      `certificate "${leaf.subject}" signs JWTs but its keyUsage (${describeKeyUsage(leaf.keyUsage)}) lacks digitalSignature`,
      leaf,
    )
  }
}

function isSelfIssued(certificate: ParsedCertificate): boolean {
  return bytesEqual(certificate.subjectDer, certificate.issuerDer)
}

/** RFC 5280 §6.1.4 (l), (m): counted from each CA down, leaf excluded, self-issued CAs free. */
function checkPathLength(path: readonly ParsedCertificate[]): void {
  let casBelow = 0
  for (let index = 1; index < path.length; index++) {
    const ca = path[index] as ParsedCertificate
    const limit = ca.pathLengthConstraint
    if (limit !== undefined && casBelow > limit) {
      failChain(
        'path-length',
        `CA certificate "${ca.subject}" allows ${limit} CA certificate${limit === 1 ? '' : 's'} below it (pathLenConstraint), but the path has ${casBelow}`,
        ca,
      )
    }
    if (!isSelfIssued(ca)) casBelow++
  }
}

/** RFC 5280 §6.1.3 (b), (c): each certificate's names against every CA above it. */
function checkNameConstraints(path: readonly ParsedCertificate[]): void {
  const constraining = path
    .map((certificate, index) => ({ certificate, index }))
    .filter(({ index, certificate }) => index > 0 && certificate.nameConstraints !== undefined)
  if (constraining.length === 0) return
  for (const [index, certificate] of path.entries()) {
    if (index > 0 && isSelfIssued(certificate)) continue
    const above = constraining.filter((entry) => entry.index > index)
    if (above.length === 0) continue
    const names = constrainedNamesOf(certificate.subjectDer, certificate.subjectAltNames)
    for (const { certificate: ca } of above) {
      const violation = ca.nameConstraints && nameConstraintViolation(ca.nameConstraints, names)
      if (violation) {
        failChain(
          'name-constraints',
          `certificate "${certificate.subject}" breaks the name constraints of "${ca.subject}": ${violation}`,
          certificate,
        )
      }
    }
  }
}
