import { CryptoError } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeBoolean } from './der-certificate-values.js'
import { derTag, readDerDocumentWithTag, readSmallInteger } from './der-values.js'
import { readCrlDistributionPointNames } from './distribution-points.js'
import { type ExtensionEntry, readExtensionList, unrecognizedCritical } from './extension-list.js'
import { type GeneralName, readSubjectAltNames } from './general-names.js'
import { readKeyIdentifierOfAuthority } from './key-identifiers.js'
import { type KeyUsage, readKeyUsage } from './key-usage.js'
import { type NameConstraints, readNameConstraints } from './name-constraints.js'

/** The extensions the library acts on, and the critical ones it does not understand. */
export interface CertificateExtensions {
  readonly subjectAltNameUris: readonly string[]
  /** Every subjectAltName entry (URIs included), for name constraints. */
  readonly subjectAltNames: readonly GeneralName[]
  readonly isCertificateAuthority: boolean
  /** `basicConstraints.pathLenConstraint`, when present. */
  readonly pathLengthConstraint: number | undefined
  /** `undefined` when the certificate has no keyUsage extension (no restriction). */
  readonly keyUsage: KeyUsage | undefined
  readonly nameConstraints: NameConstraints | undefined
  readonly subjectKeyIdentifier: Uint8Array | undefined
  readonly authorityKeyIdentifier: Uint8Array | undefined
  /**
   * DER `GeneralName`s of the complete distribution points of `cRLDistributionPoints`, matched
   * against a CRL's `issuingDistributionPoint`.
   */
  readonly crlDistributionPointNames: readonly Uint8Array[]
  /** OIDs of critical extensions outside {@link understoodExtensions}, in certificate order. */
  readonly unrecognizedCriticalExtensions: readonly string[]
  /** OIDs of every critical extension, in certificate order (for the profile rules). */
  readonly criticalExtensions: readonly string[]
}

const subjectAltNameOid = '2.5.29.17'
const basicConstraintsOid = '2.5.29.19'
const keyUsageOid = '2.5.29.15'
const nameConstraintsOid = '2.5.29.30'
const subjectKeyIdentifierOid = '2.5.29.14'
const authorityKeyIdentifierOid = '2.5.29.35'
const certificatePoliciesOid = '2.5.29.32'
const crlDistributionPointsOid = '2.5.29.31'

/**
 * Extensions whose meaning the path policy honours, so that they may be critical. The policy
 * acts on all but certificatePolicies; with anyPolicy as the initial policy set and no explicit
 * policy required (RFC 5280 §6.1.1 (c), (e)), policy OIDs alone never change a verdict.
 * cRLDistributionPoints decides which CRLs with an issuingDistributionPoint cover the
 * certificate. Policy constraints, policy mappings and inhibitAnyPolicy are not processed, so a
 * critical one is refused like any other unknown critical extension, as are extendedKeyUsage
 * (UDAP names no purpose), authority information access and every private extension. The key
 * identifiers are read but, as in OpenSSL, not accepted as critical: RFC 5280 §4.2.1.1 and
 * §4.2.1.2 have conforming CAs mark them non-critical.
 */
export const understoodExtensions: ReadonlySet<string> = new Set([
  subjectAltNameOid,
  basicConstraintsOid,
  keyUsageOid,
  nameConstraintsOid,
  certificatePoliciesOid,
  crlDistributionPointsOid,
])

const reason = 'invalid-certificate'

/**
 * Reads the `[3] EXPLICIT Extensions` of a TBSCertificate (or nothing, for v1/v2 certificates).
 * Understood extensions are decoded strictly (even when not critical: a malformed one is a
 * malformed certificate); the others are only listed when critical.
 *
 * @throws CryptoError `invalid-certificate` for malformed extensions, an extension that occurs
 *   twice (RFC 5280 §4.2), or a malformed value of an understood extension.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2
 */
export function readCertificateExtensions(wrapper: DerElement | undefined): CertificateExtensions {
  const entries = wrapper === undefined ? new Map<string, ExtensionEntry>() : readEntries(wrapper)
  const value = (oid: string) => entries.get(oid)?.value
  const subjectAltNames = readOptional(value(subjectAltNameOid), readSubjectAltNames) ?? []
  const basicConstraints = readBasicConstraints(value(basicConstraintsOid))
  const policies = value(certificatePoliciesOid)
  if (policies !== undefined)
    readDerDocumentWithTag(policies, derTag.sequence, 'certificatePolicies', reason)
  return {
    subjectAltNameUris: subjectAltNames.flatMap((name) =>
      name.form === 'uri' ? [name.value] : [],
    ),
    subjectAltNames,
    isCertificateAuthority: basicConstraints.isCertificateAuthority,
    pathLengthConstraint: basicConstraints.pathLengthConstraint,
    keyUsage: readOptional(value(keyUsageOid), readKeyUsage),
    nameConstraints: readOptional(value(nameConstraintsOid), readNameConstraints),
    subjectKeyIdentifier: readSubjectKeyIdentifier(value(subjectKeyIdentifierOid)),
    authorityKeyIdentifier: readKeyIdentifierOfAuthority(value(authorityKeyIdentifierOid), reason),
    crlDistributionPointNames:
      readOptional(value(crlDistributionPointsOid), readCrlDistributionPointNames) ?? [],
    unrecognizedCriticalExtensions: unrecognizedCritical(entries, understoodExtensions),
    criticalExtensions: [...entries].flatMap(([oid, entry]) => (entry.critical ? [oid] : [])),
  }
}

function readEntries(wrapper: DerElement): Map<string, ExtensionEntry> {
  const [extensions, extra] = readDerChildren(wrapper, reason)
  if (extra !== undefined) throw new CryptoError(reason, 'the certificate has two extension lists')
  return readExtensionList(extensions, reason, 'the certificate')
}

function readOptional<Value>(
  value: Uint8Array | undefined,
  read: (value: Uint8Array) => Value,
): Value | undefined {
  return value === undefined ? undefined : read(value)
}

/** `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }`. */
function readBasicConstraints(value: Uint8Array | undefined): {
  readonly isCertificateAuthority: boolean
  readonly pathLengthConstraint: number | undefined
} {
  if (value === undefined) return { isCertificateAuthority: false, pathLengthConstraint: undefined }
  const constraints = readDerDocumentWithTag(value, derTag.sequence, 'basicConstraints', reason)
  const fields = readDerChildren(constraints, reason)
  let index = 0
  let isCertificateAuthority = false
  if (fields[index]?.tag === derTag.boolean) {
    isCertificateAuthority = decodeBoolean(
      (fields[index] as DerElement).content,
      'basicConstraints cA',
      reason,
    )
    index++
  }
  let pathLengthConstraint: number | undefined
  if (fields[index]?.tag === derTag.integer) {
    pathLengthConstraint = readSmallInteger(
      fields[index],
      'basicConstraints pathLenConstraint',
      reason,
    )
    index++
  }
  if (index !== fields.length) throw new CryptoError(reason, 'basicConstraints has extra fields')
  return { isCertificateAuthority, pathLengthConstraint }
}

function readSubjectKeyIdentifier(value: Uint8Array | undefined): Uint8Array | undefined {
  if (value === undefined) return undefined
  return readDerDocumentWithTag(value, derTag.octetString, 'subjectKeyIdentifier', reason).content
}
