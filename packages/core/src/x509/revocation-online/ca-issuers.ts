import { CryptoError } from '../../errors/crypto-error.js'
import { readDerChildren, readDerDocument } from '../der.js'
import { derTag, expectTag } from '../der-values.js'
import { decodeDerOid } from '../object-identifier.js'

const reason = 'invalid-certificate'

/** `id-signedData`, the content type of a PKCS#7 "certs-only" message. */
const signedDataOid = '1.2.840.113549.1.7.2'

/**
 * The certificates of an AIA `caIssuers` document: one DER certificate, or a "certs-only"
 * PKCS#7 / CMS `SignedData` (`application/pkcs7-mime`, `.p7c`) holding several, in the order
 * given. Nothing is verified here: each certificate then goes through the path policy like any
 * other.
 *
 * @throws CryptoError `invalid-certificate` for anything else.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.2.1
 * @see https://www.rfc-editor.org/rfc/rfc5652#section-5.1
 */
export function readCaIssuersCertificates(body: Uint8Array): Uint8Array[] {
  const outer = readDerDocument(body, reason)
  const [first, second] = readDerChildren(
    expectTag(outer, derTag.sequence, 'the caIssuers document', reason),
    reason,
  )
  // A certificate starts with its tbsCertificate SEQUENCE; a ContentInfo with an OID.
  if (first?.tag === derTag.sequence) return [body]
  const oid = decodeDerOid(
    expectTag(first, derTag.objectIdentifier, 'the content type', reason).content,
    reason,
  )
  if (oid !== signedDataOid)
    throw new CryptoError(
      reason,
      `the caIssuers document is ${oid}, not a certificate or SignedData`,
    )
  const [signedData] = readDerChildren(
    expectTag(second, 0xa0, 'the SignedData content', reason),
    reason,
  )
  const fields = readDerChildren(
    expectTag(signedData, derTag.sequence, 'SignedData', reason),
    reason,
  )
  // version, digestAlgorithms, encapContentInfo, then [0] IMPLICIT certificates.
  const certificates = fields.slice(3).find((field) => field.tag === 0xa0)
  if (certificates === undefined) return []
  return readDerChildren(certificates, reason)
    .filter((certificate) => certificate.tag === derTag.sequence)
    .map((certificate) => certificate.bytes)
}
