import type { VerificationAlgorithm } from '../crypto/backend.js'
import { CryptoError } from '../errors/crypto-error.js'
import { readAlgorithmIdentifier, signatureAlgorithmOf } from './algorithm-identifier.js'
import { bytesEqual, type DerElement, readDerChildren, readDerDocument } from './der.js'
import {
  decodeOctetAlignedBitString,
  decodeSerialNumber,
  decodeSmallInteger,
  decodeTime,
  derTag,
  expectTag,
} from './der-values.js'
import { renderDistinguishedName } from './distinguished-name.js'
import { signatureToJose } from './signature-value.js'

/**
 * A certificate revocation list as the chain policy needs it.
 */
export interface ParsedCrl {
  readonly der: Uint8Array
  /** DER of `tbsCertList`: the bytes the issuer signed. */
  readonly tbs: Uint8Array
  /** `undefined` when the signature algorithm is not supported (never verifies). */
  readonly signatureAlgorithm: VerificationAlgorithm | undefined
  /** JOSE form: ECDSA as `r‖s`, RSA as is. */
  readonly signature: Uint8Array
  /** RFC 4514 form, for messages. */
  readonly issuer: string
  /** DER of the issuer `Name`; matched byte for byte against certificates' issuer names. */
  readonly issuerDer: Uint8Array
  readonly thisUpdate: Date
  readonly nextUpdate: Date | undefined
  /** Serial numbers as lowercase hex without leading zero octets (as `CertificateInfo.serialNumber`). */
  readonly revokedSerialNumbers: ReadonlySet<string>
}

const reason = 'invalid-crl'

/** `[0] EXPLICIT Extensions` of a TBSCertList. */
const crlExtensionsTag = 0xa0

/**
 * Parses a DER X.509 v1 or v2 CRL. No signature is checked here.
 *
 * @throws CryptoError `invalid-crl` naming what is malformed: not DER, trailing bytes, missing
 *   fields, an unknown version, differing signature algorithms, invalid dates or entries.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-5.1
 */
export function parseCrl(der: Uint8Array): ParsedCrl {
  if (!(der instanceof Uint8Array)) throw new CryptoError(reason, 'the CRL is not DER bytes')
  const bytes = new Uint8Array(der)
  const list = expectTag(readDerDocument(bytes, reason), derTag.sequence, 'the CRL', reason)
  const [tbsElement, outerAlgorithm, signatureElement, extra] = readDerChildren(list, reason)
  if (extra !== undefined) throw new CryptoError(reason, 'the CRL has more than three fields')
  const tbs = expectTag(tbsElement, derTag.sequence, 'tbsCertList', reason)
  const algorithmElement = expectTag(
    outerAlgorithm,
    derTag.sequence,
    'the CRL signature algorithm',
    reason,
  )
  const signatureBits = decodeOctetAlignedBitString(
    expectTag(signatureElement, derTag.bitString, 'the CRL signature', reason).content,
    'the CRL signature',
    reason,
  )
  const fields = readDerChildren(tbs, reason)
  let index = 0
  if (fields[0]?.tag === derTag.integer) {
    const version = decodeSmallInteger(fields[0].content, 'the CRL version', reason)
    if (version !== 1) throw new CryptoError(reason, `CRL version ${version + 1} is not supported`)
    index = 1
  }
  const innerAlgorithm = expectTag(
    fields[index++],
    derTag.sequence,
    'the tbsCertList signature algorithm',
    reason,
  )
  if (!bytesEqual(innerAlgorithm.bytes, algorithmElement.bytes)) {
    throw new CryptoError(
      reason,
      'the signature algorithm inside tbsCertList differs from the outer one',
    )
  }
  const issuer = expectTag(fields[index++], derTag.sequence, 'the CRL issuer name', reason)
  const thisUpdate = decodeTime(
    fields[index++] ?? missing('thisUpdate'),
    'the CRL thisUpdate',
    reason,
  )
  let nextUpdate: Date | undefined
  const candidate = fields[index]
  if (candidate?.tag === derTag.utcTime || candidate?.tag === derTag.generalizedTime) {
    nextUpdate = decodeTime(candidate, 'the CRL nextUpdate', reason)
    index++
  }
  let revokedSerialNumbers = new Set<string>()
  if (fields[index]?.tag === derTag.sequence) {
    revokedSerialNumbers = readRevokedSerialNumbers(fields[index] as DerElement)
    index++
  }
  if (fields[index]?.tag === crlExtensionsTag) index++
  if (index !== fields.length) throw new CryptoError(reason, 'tbsCertList has unexpected fields')
  const signatureAlgorithm = signatureAlgorithmOf(
    readAlgorithmIdentifier(algorithmElement, 'the CRL signature algorithm', reason),
  )
  return {
    der: bytes,
    tbs: tbs.bytes,
    signatureAlgorithm,
    signature: signatureToJose(signatureAlgorithm, signatureBits),
    issuer: renderDistinguishedName(issuer, reason),
    issuerDer: issuer.bytes,
    thisUpdate,
    nextUpdate,
    revokedSerialNumbers,
  }
}

function missing(field: string): never {
  throw new CryptoError(reason, `the CRL ${field} is missing`)
}

/** `revokedCertificates ::= SEQUENCE OF SEQUENCE { userCertificate, revocationDate, crlEntryExtensions OPTIONAL }`. */
function readRevokedSerialNumbers(revoked: DerElement): Set<string> {
  const serialNumbers = new Set<string>()
  for (const entry of readDerChildren(revoked, reason)) {
    const [serialNumber, revocationDate] = readDerChildren(
      expectTag(entry, derTag.sequence, 'a revoked certificate entry', reason),
      reason,
    )
    serialNumbers.add(
      decodeSerialNumber(
        expectTag(serialNumber, derTag.integer, 'a revoked serial number', reason).content,
        reason,
      ),
    )
    decodeTime(revocationDate ?? missing('revocationDate'), 'a revocation date', reason)
  }
  return serialNumbers
}
