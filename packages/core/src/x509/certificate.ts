import type { CertificateInfo } from '../crypto/certificate-info.js'
import type { VerificationAlgorithm } from '../crypto/signature-check.js'
import { CryptoError } from '../errors/crypto-error.js'
import { readCertificateExtensions } from './certificate-extensions.js'
import { type DerElement, readDerChildren, readDerDocument } from './der.js'
import { decodeSerialNumber, decodeTime } from './der-certificate-values.js'
import { checkBitString, derTag, expectTag, readSmallInteger } from './der-values.js'
import { renderDistinguishedName } from './distinguished-name.js'
import { isPointOnCurve } from './ec-curve-point.js'
import type { GeneralName } from './general-names.js'
import type { KeyUsage } from './key-usage.js'
import type { NameConstraints } from './name-constraints.js'
import { readSignature, readSignedStructure } from './signed-structure.js'
import { describeSubjectPublicKeyInfo, type PublicKeyDescription } from './spki.js'

/**
 * A certificate as the chain policy needs it: {@link CertificateInfo} plus the signed bytes,
 * the signature, the DER names, the key identifiers and the extensions the policy enforces.
 */
export interface ParsedCertificate extends CertificateInfo {
  /** DER of `tbsCertificate`: the bytes the issuer signed. */
  readonly tbs: Uint8Array
  /** `undefined` when the signature algorithm is not supported (the chain reports `bad-signature`). */
  readonly signatureAlgorithm: VerificationAlgorithm | undefined
  /** JOSE form: ECDSA as `r‖s`, RSA as is. */
  readonly signature: Uint8Array
  /** DER of the subject `Name`; issuer matching compares these bytes. */
  readonly subjectDer: Uint8Array
  readonly issuerDer: Uint8Array
  readonly publicKey: PublicKeyDescription
  readonly subjectKeyIdentifier: Uint8Array | undefined
  readonly authorityKeyIdentifier: Uint8Array | undefined
  /** Every subjectAltName entry, for name constraints (`subjectAltNameUris` are the URIs). */
  readonly subjectAltNames: readonly GeneralName[]
  /** `basicConstraints.pathLenConstraint`, when present. */
  readonly pathLengthConstraint: number | undefined
  /** `undefined` when the certificate has no keyUsage extension. */
  readonly keyUsage: KeyUsage | undefined
  readonly nameConstraints: NameConstraints | undefined
  /** DER names of the certificate's complete CRL distribution points (see `CrlScope`). */
  readonly crlDistributionPointNames: readonly Uint8Array[]
  /** OIDs of critical extensions the policy does not understand (refused anywhere in a path). */
  readonly unrecognizedCriticalExtensions: readonly string[]
  /** OIDs of every critical extension, understood or not. */
  readonly criticalExtensions: readonly string[]
  /** The X.509 version: 1, 2 or 3. */
  readonly version: number
}

const reason = 'invalid-certificate'

/**
 * Parses a DER X.509 certificate. No signature is checked here; see
 * {@link validateCertificateChain}.
 *
 * @throws CryptoError `invalid-certificate` naming what is malformed: not DER, trailing bytes,
 *   missing fields, an unknown version, a signature algorithm that differs between the
 *   certificate and its TBS part, invalid dates or extensions, or a public key that cannot be
 *   read or is not RSA/EC P-256/P-384/P-521 (the key's own error is the `cause`).
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1
 */
export function parseCertificate(der: Uint8Array): ParsedCertificate {
  const signed = readSignedStructure(der, 'certificate')
  const fields = readTbsCertificate(signed.tbs)
  const { signatureAlgorithm, signature } = readSignature(signed, fields.innerAlgorithm)
  const subject = renderDistinguishedName(fields.subject, reason)
  let publicKey: PublicKeyDescription
  try {
    publicKey = describeSubjectPublicKeyInfo(fields.publicKeyInfo.bytes)
  } catch (error) {
    if (!(error instanceof CryptoError)) throw error
    throw new CryptoError(
      reason,
      `the public key of certificate "${subject}" cannot be used: ${error.message}`,
      { cause: error },
    )
  }
  if (publicKey.type === 'EC') checkPointOnCurve(fields.publicKeyInfo.bytes, publicKey, subject)
  const extensions = readCertificateExtensions(fields.extensions)
  return {
    der: signed.der,
    subject,
    issuer: renderDistinguishedName(fields.issuer, reason),
    serialNumber: decodeSerialNumber(fields.serialNumber.content, reason),
    notBefore: decodeTime(fields.notBefore, 'notBefore', reason),
    notAfter: decodeTime(fields.notAfter, 'notAfter', reason),
    subjectAltNameUris: extensions.subjectAltNameUris,
    publicKeySpki: fields.publicKeyInfo.bytes,
    publicKeyJwk: publicKey.jwk,
    isCertificateAuthority: extensions.isCertificateAuthority,
    tbs: signed.tbs.bytes,
    signatureAlgorithm,
    signature,
    subjectDer: fields.subject.bytes,
    issuerDer: fields.issuer.bytes,
    publicKey,
    subjectKeyIdentifier: extensions.subjectKeyIdentifier,
    authorityKeyIdentifier: extensions.authorityKeyIdentifier,
    subjectAltNames: extensions.subjectAltNames,
    pathLengthConstraint: extensions.pathLengthConstraint,
    keyUsage: extensions.keyUsage,
    nameConstraints: extensions.nameConstraints,
    crlDistributionPointNames: extensions.crlDistributionPointNames,
    unrecognizedCriticalExtensions: extensions.unrecognizedCriticalExtensions,
    criticalExtensions: extensions.criticalExtensions,
    version: fields.version + 1,
  }
}

/**
 * The fields after subjectPublicKeyInfo: `[1] IMPLICIT issuerUniqueID` and `[2] IMPLICIT
 * subjectUniqueID` (v2 and v3 only, primitive BIT STRINGs), then `[3] EXPLICIT extensions` (v3
 * only), each at most once and in this order. The unique identifiers are checked and dropped.
 *
 * @returns the extensions wrapper, when present.
 * @throws CryptoError `invalid-certificate` for a field out of order, repeated, constructed, in
 *   a version without it, or a unique identifier that is no valid BIT STRING.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.2.8
 */
function readOptionalTrailingFields(
  trailing: readonly DerElement[],
  version: number,
): DerElement | undefined {
  // Each tag with the lowest version (0-based) that may carry it, in the only allowed order.
  const allowed = [
    [issuerUniqueIdTag, 1],
    [subjectUniqueIdTag, 1],
    [extensionsTag, 2],
  ] as const
  let next = 0
  let extensions: DerElement | undefined
  for (const field of trailing) {
    while (next < allowed.length && (allowed[next] as (typeof allowed)[number])[0] !== field.tag)
      next++
    const slot = allowed[next]
    if (slot === undefined || version < slot[1]) {
      throw new CryptoError(
        reason,
        `tbsCertificate has an unexpected field with tag 0x${field.tag.toString(16)}`,
      )
    }
    next++
    if (field.tag === extensionsTag) extensions = field
    else
      checkBitString(
        field.content,
        `the ${field.tag === issuerUniqueIdTag ? 'issuerUniqueID' : 'subjectUniqueID'}`,
        reason,
      )
  }
  return extensions
}

/**
 * Refuses an EC key whose point is not on its curve: OpenSSL cannot use such a key and refuses
 * the path that holds it.
 */
function checkPointOnCurve(spki: Uint8Array, key: PublicKeyDescription, subject: string): void {
  // describeSubjectPublicKeyInfo has read this SPKI: a BIT STRING holding 0x04 ‖ x ‖ y.
  const [, bits] = readDerChildren(readDerDocument(spki, reason), reason)
  const point = (bits as DerElement).content.subarray(2)
  const size = point.length / 2
  if (!isPointOnCurve(String(key.namedCurve), point.subarray(0, size), point.subarray(size))) {
    throw new CryptoError(
      reason,
      `the public key of certificate "${subject}" is not a point on ${key.namedCurve}`,
    )
  }
}

interface TbsCertificateFields {
  /** As encoded: 0 for v1, 2 for v3. */
  readonly version: number
  readonly serialNumber: DerElement
  readonly innerAlgorithm: DerElement
  readonly issuer: DerElement
  readonly notBefore: DerElement
  readonly notAfter: DerElement
  readonly subject: DerElement
  readonly publicKeyInfo: DerElement
  readonly extensions: DerElement | undefined
}

/** Context-specific tags of the optional TBSCertificate fields. */
const versionTag = 0xa0
const issuerUniqueIdTag = 0x81
const subjectUniqueIdTag = 0x82
const extensionsTag = 0xa3

/**
 * `TBSCertificate ::= SEQUENCE { [0] version, serialNumber, signature, issuer, validity, subject,
 * subjectPublicKeyInfo, [1] issuerUniqueID, [2] subjectUniqueID, [3] extensions }`.
 */
function readTbsCertificate(tbs: DerElement): TbsCertificateFields {
  const fields = readDerChildren(tbs, reason)
  let index = 0
  let version = 0
  if (fields[0]?.tag === versionTag) {
    const [versionNumber, extra] = readDerChildren(fields[0], reason)
    if (extra !== undefined)
      throw new CryptoError(reason, 'the certificate version field has extra content')
    version = readSmallInteger(versionNumber, 'the version', reason)
    if (version > 2)
      throw new CryptoError(reason, `certificate version ${version + 1} is not supported`)
    index = 1
  }
  const next = (tag: number, what: string): DerElement =>
    expectTag(fields[index++], tag, what, reason)
  const serialNumber = next(derTag.integer, 'the serial number')
  const innerAlgorithm = next(derTag.sequence, 'the tbsCertificate signature algorithm')
  const issuer = next(derTag.sequence, 'the issuer name')
  const validity = next(derTag.sequence, 'the validity')
  const subject = next(derTag.sequence, 'the subject name')
  const publicKeyInfo = next(derTag.sequence, 'subjectPublicKeyInfo')
  const [notBefore, notAfter, validityExtra] = readDerChildren(validity, reason)
  if (notBefore === undefined || notAfter === undefined || validityExtra !== undefined) {
    throw new CryptoError(reason, 'the validity is not notBefore and notAfter')
  }
  const extensions = readOptionalTrailingFields(fields.slice(index), version)
  return {
    version,
    serialNumber,
    innerAlgorithm,
    issuer,
    notBefore,
    notAfter,
    subject,
    publicKeyInfo,
    extensions,
  }
}
