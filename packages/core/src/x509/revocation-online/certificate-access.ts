import type { ParsedCertificate } from '../certificate.js'
import { type DerElement, readDerChildren, readDerDocument } from '../der.js'
import { latin1 } from '../der-certificate-values.js'
import { derTag, expectTag, readDerDocumentWithTag } from '../der-values.js'
import { readExtensionList } from '../extension-list.js'
import { decodeDerOid } from '../object-identifier.js'
import { isHttpUrl } from './distribution-point-uris.js'

const reason = 'invalid-certificate'

/** `[3] EXPLICIT Extensions` of a TBSCertificate. */
const extensionsTag = 0xa3

const authorityInfoAccessOid = '1.3.6.1.5.5.7.1.1'
const ocspAccessMethod = '1.3.6.1.5.5.7.48.1'
const caIssuersAccessMethod = '1.3.6.1.5.5.7.48.2'
const extendedKeyUsageOid = '2.5.29.37'

/** `[6] uniformResourceIdentifier`. */
const uriTag = 0x86

/** The value of one extension of a parsed certificate, read again from its signed bytes. */
function extensionValue(certificate: ParsedCertificate, oid: string): Uint8Array | undefined {
  const fields = readDerChildren(readDerDocument(certificate.tbs, reason), reason)
  const extensions = fields.find((field) => field.tag === extensionsTag)
  if (extensions === undefined) return undefined
  const [list] = readDerChildren(extensions, reason)
  return readExtensionList(list, reason, 'the certificate').get(oid)?.value
}

/**
 * The `http:`/`https:` URLs of a certificate's authority information access: its OCSP
 * responders (`id-ad-ocsp`) and where its issuer's certificate is published (`id-ad-caIssuers`),
 * in certificate order. Other URI schemes (`ldap:`) and other name forms are left out.
 *
 * @throws CryptoError `invalid-certificate` for a malformed extension.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.2.1
 */
export function authorityInformationAccess(certificate: ParsedCertificate): {
  readonly ocsp: readonly string[]
  readonly caIssuers: readonly string[]
} {
  const ocsp: string[] = []
  const caIssuers: string[] = []
  const value = extensionValue(certificate, authorityInfoAccessOid)
  if (value === undefined) return { ocsp, caIssuers }
  const descriptions = readDerChildren(
    readDerDocumentWithTag(value, derTag.sequence, 'authorityInfoAccess', reason),
    reason,
  )
  for (const description of descriptions) {
    const [method, location, extra] = readDerChildren(
      expectTag(description, derTag.sequence, 'an access description', reason),
      reason,
    )
    if (location === undefined || extra !== undefined) continue
    const oid = decodeDerOid(
      expectTag(method, derTag.objectIdentifier, 'an access method', reason).content,
      reason,
    )
    const uri = uriOf(location)
    if (uri === undefined || !isHttpUrl(uri)) continue
    if (oid === ocspAccessMethod) ocsp.push(uri)
    else if (oid === caIssuersAccessMethod) caIssuers.push(uri)
  }
  return { ocsp, caIssuers }
}

function uriOf(name: DerElement): string | undefined {
  return name.tag === uriTag ? latin1(name.content) : undefined
}

/**
 * True when the certificate's extendedKeyUsage lists `purpose` (an OID), e.g. `id-kp-OCSPSigning`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.12
 */
export function hasExtendedKeyUsage(certificate: ParsedCertificate, purpose: string): boolean {
  const value = extensionValue(certificate, extendedKeyUsageOid)
  if (value === undefined) return false
  return readDerChildren(
    readDerDocumentWithTag(value, derTag.sequence, 'extendedKeyUsage', reason),
    reason,
  ).some(
    (usage) =>
      decodeDerOid(
        expectTag(usage, derTag.objectIdentifier, 'a key purpose', reason).content,
        reason,
      ) === purpose,
  )
}
