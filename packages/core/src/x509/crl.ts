import type { VerificationAlgorithm } from '../crypto/backend.js'
import { CryptoError } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import {
  decodeSerialNumber,
  decodeTime,
  derTag,
  expectTag,
  readSmallInteger,
} from './der-values.js'
import { renderDistinguishedName } from './distinguished-name.js'
import { readSignature, readSignedStructure } from './signed-structure.js'

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
  const signed = readSignedStructure(der, 'CRL')
  const fields = readDerChildren(signed.tbs, reason)
  let index = 0
  if (fields[0]?.tag === derTag.integer) {
    const version = readSmallInteger(fields[0], 'the CRL version', reason)
    if (version !== 1) throw new CryptoError(reason, `CRL version ${version + 1} is not supported`)
    index = 1
  }
  const { signatureAlgorithm, signature } = readSignature(
    signed,
    expectTag(fields[index++], derTag.sequence, 'the tbsCertList signature algorithm', reason),
  )
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
  return {
    der: signed.der,
    tbs: signed.tbs.bytes,
    signatureAlgorithm,
    signature,
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
