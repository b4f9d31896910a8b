import { bytesEqual } from '../../crypto/bytes.js'
import { randomBytes } from '../../crypto/random.js'
import type { ParsedCertificate } from '../certificate.js'
import { encodeDer, encodeDerSequence, readDerChildren, readDerDocument } from '../der.js'
import { derTag, expectTag } from '../der-values.js'
import { encodeDerOid } from '../object-identifier.js'

/** `id-sha1`: the hash of the CertID the library sends (RFC 5019 §2.1.1, what responders index by). */
export const sha1Oid = '1.3.14.3.2.26'

/** `id-pkix-ocsp-nonce`: the request extension a responder echoes to bind its answer to the request. */
export const ocspNonceOid = '1.3.6.1.5.5.7.48.1.2'

/** Random octets in a request nonce: 32, the length RFC 8954 §2.1 requires of a requester. */
export const ocspNonceOctets = 32

/** The `CertID` of one certificate: what a request asks about and a response must name. */
export interface OcspCertificateId {
  /** SHA-1 of the issuer's DER name. */
  readonly issuerNameHash: Uint8Array
  /** SHA-1 of the issuer's subjectPublicKey BIT STRING value. */
  readonly issuerKeyHash: Uint8Array
  /** The content octets of the certificate's serialNumber INTEGER. */
  readonly serialNumber: Uint8Array
  /** `CertID ::= SEQUENCE { hashAlgorithm, issuerNameHash, issuerKeyHash, serialNumber }`. */
  readonly der: Uint8Array
}

const reason = 'invalid-certificate'

async function sha1(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await globalThis.crypto.subtle.digest('SHA-1', new Uint8Array(data) as Uint8Array<ArrayBuffer>),
  )
}

/**
 * The `CertID` of `certificate`, issued by `issuer`, with SHA-1 hashes (SHA-1 here names a
 * certificate, it signs nothing).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.1.1
 */
export async function ocspCertificateId(
  certificate: ParsedCertificate,
  issuer: ParsedCertificate,
): Promise<OcspCertificateId> {
  const [, subjectPublicKey] = readDerChildren(
    readDerDocument(issuer.publicKeySpki, reason),
    reason,
  )
  const keyBits = expectTag(subjectPublicKey, derTag.bitString, 'subjectPublicKey', reason).content
  const issuerNameHash = await sha1(issuer.subjectDer)
  const issuerKeyHash = await sha1(keyBits.subarray(1))
  const serialNumber = serialElement(certificate).content
  const der = encodeDerSequence(
    encodeDerSequence(encodeDerOid(sha1Oid), encodeDer(derTag.null, new Uint8Array())),
    encodeDer(derTag.octetString, issuerNameHash),
    encodeDer(derTag.octetString, issuerKeyHash),
    encodeDer(derTag.integer, serialNumber),
  )
  return { issuerNameHash, issuerKeyHash, serialNumber, der }
}

/** The serialNumber INTEGER of a certificate, as its issuer encoded it. */
function serialElement(certificate: ParsedCertificate) {
  const fields = readDerChildren(readDerDocument(certificate.tbs, reason), reason)
  const serial = fields[0]?.tag === 0xa0 ? fields[1] : fields[0]
  return expectTag(serial, derTag.integer, 'the serial number', reason)
}

/**
 * A fresh request nonce: the `extnValue` octets of an `id-pkix-ocsp-nonce` extension, i.e. the
 * DER `Nonce ::= OCTET STRING (SIZE(1..32))` holding {@link ocspNonceOctets} octets from the
 * CSPRNG. A responder that supports nonces echoes these octets in its answer.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8954#section-2.1
 */
export function ocspRequestNonce(): Uint8Array {
  return encodeDer(derTag.octetString, randomBytes(ocspNonceOctets))
}

/**
 * `OCSPRequest ::= SEQUENCE { tbsRequest SEQUENCE { requestList SEQUENCE OF Request,
 * requestExtensions [2] EXPLICIT Extensions OPTIONAL } }` with one `Request ::= SEQUENCE {
 * reqCert CertID }` and no signature (RFC 5019's profile). With `nonce` (from
 * {@link ocspRequestNonce}), the request carries it as its one, non-critical extension
 * (RFC 6960 §4.4.1), so that a responder's echo proves its answer is not a replay.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.1.1
 * @see https://www.rfc-editor.org/rfc/rfc8954#section-2.1
 */
export function encodeOcspRequest(id: OcspCertificateId, nonce?: Uint8Array): Uint8Array {
  const requestList = encodeDerSequence(encodeDerSequence(id.der))
  if (nonce === undefined) return encodeDerSequence(encodeDerSequence(requestList))
  const extensions = encodeDerSequence(
    encodeDerSequence(encodeDerOid(ocspNonceOid), encodeDer(derTag.octetString, nonce)),
  )
  return encodeDerSequence(encodeDerSequence(requestList, encodeDer(0xa2, extensions)))
}

/** True when two CertIDs name the same certificate (same hashes, same serial). */
export function sameCertificateId(
  left: Pick<OcspCertificateId, 'issuerNameHash' | 'issuerKeyHash' | 'serialNumber'>,
  right: Pick<OcspCertificateId, 'issuerNameHash' | 'issuerKeyHash' | 'serialNumber'>,
): boolean {
  return (
    bytesEqual(left.issuerNameHash, right.issuerNameHash) &&
    bytesEqual(left.issuerKeyHash, right.issuerKeyHash) &&
    bytesEqual(left.serialNumber, right.serialNumber)
  )
}
