import { CryptoError } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeBoolean, derTag, expectTag, latin1, readDerDocumentWithTag } from './der-values.js'
import { decodeDerOid } from './object-identifier.js'

/** The extensions the library acts on; others are skipped. */
export interface CertificateExtensions {
  readonly subjectAltNameUris: readonly string[]
  readonly isCertificateAuthority: boolean
  readonly subjectKeyIdentifier: Uint8Array | undefined
  readonly authorityKeyIdentifier: Uint8Array | undefined
}

const subjectAltNameOid = '2.5.29.17'
const basicConstraintsOid = '2.5.29.19'
const subjectKeyIdentifierOid = '2.5.29.14'
const authorityKeyIdentifierOid = '2.5.29.35'

/** `GeneralName` choice `[6] uniformResourceIdentifier IA5String`, implicitly tagged. */
const uniformResourceIdentifierTag = 0x86
/** `AuthorityKeyIdentifier` field `[0] keyIdentifier OCTET STRING`, implicitly tagged. */
const keyIdentifierTag = 0x80

const reason = 'invalid-certificate'

/**
 * Reads the `[3] EXPLICIT Extensions` of a TBSCertificate (or nothing, for v1/v2 certificates).
 *
 * @throws CryptoError `invalid-certificate` for malformed extensions, an extension that occurs
 *   twice (RFC 5280 §4.2), or a SAN URI that is not ASCII.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2
 */
export function readCertificateExtensions(wrapper: DerElement | undefined): CertificateExtensions {
  const values = new Map<string, Uint8Array>()
  if (wrapper !== undefined) {
    const [extensions, extra] = readDerChildren(wrapper, reason)
    if (extra !== undefined)
      throw new CryptoError(reason, 'the certificate has two extension lists')
    for (const extension of readDerChildren(
      expectTag(extensions, derTag.sequence, 'the extension list', reason),
      reason,
    )) {
      const fields = readDerChildren(
        expectTag(extension, derTag.sequence, 'an extension', reason),
        reason,
      )
      const [oidElement, second] = fields
      const oid = decodeDerOid(
        expectTag(oidElement, derTag.objectIdentifier, 'an extension OID', reason).content,
        reason,
      )
      const hasCriticalFlag = second?.tag === derTag.boolean
      if (hasCriticalFlag)
        decodeBoolean(second.content, `the critical flag of extension ${oid}`, reason)
      if (fields.length !== (hasCriticalFlag ? 3 : 2)) {
        throw new CryptoError(
          reason,
          `extension ${oid} does not have the fields extnID, critical, extnValue`,
        )
      }
      const value = expectTag(
        fields[fields.length - 1],
        derTag.octetString,
        `the value of extension ${oid}`,
        reason,
      )
      if (values.has(oid))
        throw new CryptoError(reason, `the certificate has extension ${oid} twice`)
      values.set(oid, value.content)
    }
  }
  return {
    subjectAltNameUris: readSubjectAltNameUris(values.get(subjectAltNameOid)),
    isCertificateAuthority: readIsCertificateAuthority(values.get(basicConstraintsOid)),
    subjectKeyIdentifier: readSubjectKeyIdentifier(values.get(subjectKeyIdentifierOid)),
    authorityKeyIdentifier: readAuthorityKeyIdentifier(values.get(authorityKeyIdentifierOid)),
  }
}

/**
 * SAN `uniformResourceIdentifier` entries, exactly as encoded: no normalisation, no splitting on
 * commas, so UDAP's exact `iss` comparison sees what the CA signed.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.6
 */
function readSubjectAltNameUris(value: Uint8Array | undefined): string[] {
  if (value === undefined) return []
  const names = readDerDocumentWithTag(value, derTag.sequence, 'subjectAltName', reason)
  const uris: string[] = []
  for (const name of readDerChildren(names, reason)) {
    if (name.tag !== uniformResourceIdentifierTag) continue
    // IA5String is 7-bit ASCII; refusing other bytes keeps look-alike URIs out.
    if (name.content.some((octet) => octet > 0x7e || octet < 0x20)) {
      throw new CryptoError(reason, 'a subjectAltName URI contains non-ASCII or control characters')
    }
    uris.push(latin1(name.content))
  }
  return uris
}

/** `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }`. */
function readIsCertificateAuthority(value: Uint8Array | undefined): boolean {
  if (value === undefined) return false
  const constraints = readDerDocumentWithTag(value, derTag.sequence, 'basicConstraints', reason)
  const [first] = readDerChildren(constraints, reason)
  return (
    first?.tag === derTag.boolean && decodeBoolean(first.content, 'basicConstraints cA', reason)
  )
}

function readSubjectKeyIdentifier(value: Uint8Array | undefined): Uint8Array | undefined {
  if (value === undefined) return undefined
  return readDerDocumentWithTag(value, derTag.octetString, 'subjectKeyIdentifier', reason).content
}

/** `AuthorityKeyIdentifier ::= SEQUENCE { [0] keyIdentifier OPTIONAL, [1] issuer, [2] serial }`. */
function readAuthorityKeyIdentifier(value: Uint8Array | undefined): Uint8Array | undefined {
  if (value === undefined) return undefined
  const identifier = readDerDocumentWithTag(
    value,
    derTag.sequence,
    'authorityKeyIdentifier',
    reason,
  )
  return readDerChildren(identifier, reason).find((field) => field.tag === keyIdentifierTag)
    ?.content
}
