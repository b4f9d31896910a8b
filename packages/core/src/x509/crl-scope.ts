import { bytesEqual } from '../crypto/bytes.js'
import type { ParsedCertificate } from './certificate.js'
import type { CrlScope } from './distribution-points.js'

/**
 * Whether a complete CRL with this scope decides the status of `certificate` (RFC 5280
 * §6.3.3 (b)). No scope covers every certificate of the issuer. A scope covers nothing when it
 * is partial (`onlySomeReasons`), indirect or for attribute certificates, and otherwise only
 * CA or only end-entity certificates when it says so, and only certificates naming one of its
 * distribution point names in their `cRLDistributionPoints` (compared byte for byte).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-5.2.5
 */
export function crlCovers(scope: CrlScope | undefined, certificate: ParsedCertificate): boolean {
  if (scope === undefined) return true
  if (scope.onlySomeReasons || scope.indirect || scope.onlyAttributeCertificates) return false
  if (scope.onlyUserCertificates && certificate.isCertificateAuthority) return false
  if (scope.onlyCaCertificates && !certificate.isCertificateAuthority) return false
  const names = scope.distributionPointNames
  if (names === undefined) return true
  return names.some((name) =>
    certificate.crlDistributionPointNames.some((candidate) => bytesEqual(candidate, name)),
  )
}
