import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeBoolean } from './der-certificate-values.js'
import { derTag, expectTag, readDerDocumentWithTag } from './der-values.js'
import { readGeneralName } from './general-names.js'

/**
 * What a CRL's `issuingDistributionPoint` says it covers. A CRL without the extension covers
 * every certificate of its issuer.
 */
export interface CrlScope {
  /**
   * DER of each `GeneralName` of the distribution point's `fullName`; empty when the point is a
   * `nameRelativeToCRLIssuer` (never matched); `undefined` when the extension names no point.
   */
  readonly distributionPointNames: readonly Uint8Array[] | undefined
  readonly onlyUserCertificates: boolean
  readonly onlyCaCertificates: boolean
  readonly onlyAttributeCertificates: boolean
  /** `onlySomeReasons` present: a partial CRL, not enough on its own. */
  readonly onlySomeReasons: boolean
  /** `indirectCRL`: entries may be about other issuers' certificates (not supported). */
  readonly indirect: boolean
}

/** `DistributionPointName` choices and the tagged fields around them. */
const fullNameTag = 0xa0
const distributionPointTag = 0xa0
const reasonsTag = 0x81
const crlIssuerTag = 0xa2

/**
 * Reads `issuingDistributionPoint ::= SEQUENCE { distributionPoint [0] DistributionPointName
 * OPTIONAL, onlyContainsUserCerts [1] BOOLEAN DEFAULT FALSE, onlyContainsCACerts [2],
 * onlySomeReasons [3] ReasonFlags OPTIONAL, indirectCRL [4], onlyContainsAttributeCerts [5] }`.
 *
 * @throws CryptoError `invalid-crl` for a malformed value or fields out of order.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-5.2.5
 */
export function readIssuingDistributionPoint(value: Uint8Array): CrlScope {
  const reason = 'invalid-crl'
  const fields = readDerChildren(
    readDerDocumentWithTag(value, derTag.sequence, 'issuingDistributionPoint', reason),
    reason,
  )
  let distributionPointNames: readonly Uint8Array[] | undefined
  const flags = new Set<number>()
  let previous = -1
  for (const field of fields) {
    const number = field.tag & 0x1f
    if ((field.tag & 0xc0) !== 0x80 || number > 5 || number <= previous) {
      throw new CryptoError(reason, 'issuingDistributionPoint has an unexpected field')
    }
    previous = number
    if (number === 0) distributionPointNames = readPointName(field, reason)
    else if (number === 3) flags.add(3)
    else if (decodeBoolean(field.content, 'an issuingDistributionPoint flag', reason))
      flags.add(number)
  }
  return Object.freeze({
    distributionPointNames,
    onlyUserCertificates: flags.has(1),
    onlyCaCertificates: flags.has(2),
    onlySomeReasons: flags.has(3),
    indirect: flags.has(4),
    onlyAttributeCertificates: flags.has(5),
  })
}

/**
 * Reads a certificate's `cRLDistributionPoints ::= SEQUENCE OF DistributionPoint` and returns
 * the DER of each `fullName` GeneralName of the points that name no `reasons` and no
 * `cRLIssuer` (the points whose CRL is complete and issued by the certificate's issuer, the
 * only CRLs the policy uses).
 *
 * @throws CryptoError `invalid-certificate` for a malformed value.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export function readCrlDistributionPointNames(value: Uint8Array): readonly Uint8Array[] {
  const reason = 'invalid-certificate'
  const points = readDerChildren(
    readDerDocumentWithTag(value, derTag.sequence, 'cRLDistributionPoints', reason),
    reason,
  )
  const names: Uint8Array[] = []
  for (const point of points) {
    const fields = readDerChildren(
      expectTag(point, derTag.sequence, 'a distribution point', reason),
      reason,
    )
    const tags = fields.map((field) => field.tag)
    if (tags.some((tag) => ![distributionPointTag, reasonsTag, crlIssuerTag].includes(tag))) {
      throw new CryptoError(reason, 'a distribution point has an unexpected field')
    }
    const name = fields.find((field) => field.tag === distributionPointTag)
    if (name === undefined || tags.includes(reasonsTag) || tags.includes(crlIssuerTag)) continue
    names.push(...readPointName(name, reason))
  }
  return Object.freeze(names)
}

/** `[0] DistributionPointName`: the fullName GeneralNames, or none for a relative name. */
function readPointName(field: DerElement, reason: CryptoErrorReason): readonly Uint8Array[] {
  const [choice, extra] = readDerChildren(field, reason)
  if (choice === undefined || extra !== undefined) {
    throw new CryptoError(reason, 'a distribution point name is not one name')
  }
  if (choice.tag !== fullNameTag) return []
  const names = readDerChildren(choice, reason)
  for (const name of names) readGeneralName(name, 'a distribution point name', reason)
  return names.map((name) => name.bytes)
}
