import type { VerificationAlgorithm } from '../../crypto/signature-check.js'
import { CryptoError } from '../../errors/crypto-error.js'
import { readAlgorithmIdentifier } from '../algorithm-identifier.js'
import { type ParsedCertificate, parseCertificate } from '../certificate.js'
import { type DerElement, readDerChildren } from '../der.js'
import { decodeTime } from '../der-certificate-values.js'
import {
  decodeOctetAlignedBitString,
  derTag,
  expectTag,
  readDerDocumentWithTag,
} from '../der-values.js'
import { readExtensionList, unrecognizedCritical } from '../extension-list.js'
import { decodeDerOid } from '../object-identifier.js'
import { signatureAlgorithmOf } from '../signature-algorithm.js'
import { signatureToJose } from '../signature-value.js'
import { ocspNonceOid } from './ocsp-request.js'

// Malformed revocation information never leaves the library (it becomes part of a
// `revocation-unavailable` message), so it shares the CRL reason.
const reason = 'invalid-crl'

const basicResponseOid = '1.3.6.1.5.5.7.48.1.1'

/** One `SingleResponse`: the certificate it is about and what the responder says. */
export interface OcspSingleResponse {
  readonly hashAlgorithm: string
  readonly issuerNameHash: Uint8Array
  readonly issuerKeyHash: Uint8Array
  readonly serialNumber: Uint8Array
  readonly status: 'good' | 'revoked' | 'unknown'
  readonly thisUpdate: Date
  readonly nextUpdate: Date | undefined
}

/** A `BasicOCSPResponse`, as the revocation check needs it. */
export interface ParsedOcspResponse {
  /** DER of `tbsResponseData`: the bytes the responder signed. */
  readonly tbs: Uint8Array
  readonly signatureAlgorithm: VerificationAlgorithm | undefined
  /** JOSE form. */
  readonly signature: Uint8Array
  readonly responses: readonly OcspSingleResponse[]
  /**
   * The `extnValue` octets of the `id-pkix-ocsp-nonce` response extension (the request's
   * nonce, echoed), or `undefined` when the responder sent none.
   */
  readonly nonce: Uint8Array | undefined
  /** Certificates the responder sent (a delegated responder's own, for one). */
  readonly certificates: readonly ParsedCertificate[]
  /**
   * OIDs of critical response or SingleResponse extensions the library does not understand
   * (it understands the nonce): RFC 6960 §4.4 lets a client ignore only non-critical ones, so
   * such an answer decides nothing.
   */
  readonly unrecognizedCriticalExtensions: readonly string[]
}

/** Response extensions understood: the nonce. No SingleResponse extension is. */
const understoodResponseExtensions: ReadonlySet<string> = new Set([ocspNonceOid])

/**
 * Reads an `OCSPResponse` whose status is `successful` and whose body is a
 * `BasicOCSPResponse`. No signature is checked here.
 *
 * @throws CryptoError `invalid-crl` naming what is wrong: another status (`tryLater`,
 *   `unauthorized`…), another response type, or malformed DER.
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.2.1
 */
export function parseOcspResponse(der: Uint8Array): ParsedOcspResponse {
  const [status, bytes] = readDerChildren(
    readDerDocumentWithTag(der, derTag.sequence, 'the OCSP response', reason),
    reason,
  )
  const statusValue = expectTag(status, 0x0a, 'the OCSP response status', reason).content
  if (statusValue.length !== 1 || statusValue[0] !== 0) {
    throw new CryptoError(
      reason,
      `the OCSP responder answered with status ${statusValue[0] ?? '?'} (not successful)`,
    )
  }
  const [responseBytes] = readDerChildren(expectTag(bytes, 0xa0, 'responseBytes', reason), reason)
  const [type, body] = readDerChildren(
    expectTag(responseBytes, derTag.sequence, 'responseBytes', reason),
    reason,
  )
  const oid = decodeDerOid(
    expectTag(type, derTag.objectIdentifier, 'the response type', reason).content,
    reason,
  )
  if (oid !== basicResponseOid)
    throw new CryptoError(reason, `the OCSP response type ${oid} is not basic`)
  const basic = readDerDocumentWithTag(
    expectTag(body, derTag.octetString, 'the response', reason).content,
    derTag.sequence,
    'BasicOCSPResponse',
    reason,
  )
  const [tbs, algorithm, signatureBits, certs] = readDerChildren(basic, reason)
  const signatureAlgorithm = signatureAlgorithmOf(
    readAlgorithmIdentifier(algorithm, 'the OCSP signature algorithm', reason),
  )
  const signature = signatureToJose(
    signatureAlgorithm,
    decodeOctetAlignedBitString(
      expectTag(signatureBits, derTag.bitString, 'the OCSP signature', reason).content,
      'the OCSP signature',
      reason,
    ),
  )
  const certificates =
    certs === undefined
      ? []
      : readDerChildren(
          expectTag(
            readDerChildren(expectTag(certs, 0xa0, 'certs', reason), reason)[0],
            derTag.sequence,
            'certs',
            reason,
          ),
          reason,
        ).map((certificate) => parseCertificate(certificate.bytes))
  const tbsElement = expectTag(tbs, derTag.sequence, 'tbsResponseData', reason)
  return {
    tbs: tbsElement.bytes,
    signatureAlgorithm,
    signature,
    ...readResponseData(tbsElement),
    certificates,
  }
}

/**
 * `ResponseData ::= SEQUENCE { version [0] EXPLICIT DEFAULT v1, responderID, producedAt,
 * responses SEQUENCE OF SingleResponse, responseExtensions [1] EXPLICIT OPTIONAL }`.
 */
function readResponseData(
  tbs: DerElement,
): Pick<ParsedOcspResponse, 'responses' | 'nonce' | 'unrecognizedCriticalExtensions'> {
  const fields = readDerChildren(tbs, reason)
  let index = fields[0]?.tag === 0xa0 ? 1 : 0
  const responder = fields[index++]
  if (responder?.tag !== 0xa1 && responder?.tag !== 0xa2) {
    throw new CryptoError(reason, 'the OCSP responderID is missing')
  }
  decodeTime(
    expectTag(fields[index++], derTag.generalizedTime, 'producedAt', reason),
    'producedAt',
    reason,
  )
  const responses = expectTag(fields[index++], derTag.sequence, 'the OCSP responses', reason)
  const extensions = readExtensions(fields[index], 'the OCSP response')
  const singles = readDerChildren(responses, reason).map(readSingleResponse)
  const critical = [
    ...unrecognizedCritical(extensions, understoodResponseExtensions),
    ...singles.flatMap((single) => single.unrecognizedCritical),
  ]
  return {
    responses: singles.map((single) => single.response),
    nonce: extensions.get(ocspNonceOid)?.value,
    unrecognizedCriticalExtensions: [...new Set(critical)],
  }
}

/** `[1] EXPLICIT Extensions OPTIONAL`, the tag of both response and SingleResponse extensions. */
function readExtensions(field: DerElement | undefined, owner: string) {
  return field?.tag === 0xa1
    ? readExtensionList(readDerChildren(field, reason)[0], reason, owner)
    : new Map<string, never>()
}

function readSingleResponse(element: DerElement): {
  readonly response: OcspSingleResponse
  readonly unrecognizedCritical: readonly string[]
} {
  const [certId, certStatus, thisUpdate, ...rest] = readDerChildren(
    expectTag(element, derTag.sequence, 'a SingleResponse', reason),
    reason,
  )
  const [hash, nameHash, keyHash, serial] = readDerChildren(
    expectTag(certId, derTag.sequence, 'a CertID', reason),
    reason,
  )
  const hashAlgorithm = readAlgorithmIdentifier(hash, 'the CertID hash algorithm', reason).oid
  const status =
    certStatus?.tag === 0x80
      ? 'good'
      : certStatus?.tag === 0xa1
        ? 'revoked'
        : certStatus?.tag === 0x82
          ? 'unknown'
          : undefined
  if (status === undefined) throw new CryptoError(reason, 'a SingleResponse has no certStatus')
  const nextUpdateField = rest.find((field) => field.tag === 0xa0)
  const [nextUpdate] = nextUpdateField === undefined ? [] : readDerChildren(nextUpdateField, reason)
  const extensions = readExtensions(
    rest.find((field) => field.tag === 0xa1),
    'a SingleResponse',
  )
  const response: OcspSingleResponse = {
    hashAlgorithm,
    issuerNameHash: expectTag(nameHash, derTag.octetString, 'issuerNameHash', reason).content,
    issuerKeyHash: expectTag(keyHash, derTag.octetString, 'issuerKeyHash', reason).content,
    serialNumber: expectTag(serial, derTag.integer, 'the CertID serial number', reason).content,
    status,
    thisUpdate: decodeTime(
      expectTag(thisUpdate, derTag.generalizedTime, 'thisUpdate', reason),
      'thisUpdate',
      reason,
    ),
    nextUpdate:
      nextUpdate === undefined
        ? undefined
        : decodeTime(
            expectTag(nextUpdate, derTag.generalizedTime, 'nextUpdate', reason),
            'nextUpdate',
            reason,
          ),
  }
  return { response, unrecognizedCritical: unrecognizedCritical(extensions, new Set()) }
}
