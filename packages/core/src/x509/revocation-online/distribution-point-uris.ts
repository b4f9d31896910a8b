import type { ParsedCertificate } from '../certificate.js'
import { readDerDocument } from '../der.js'
import { latin1 } from '../der-certificate-values.js'

/** `[6] uniformResourceIdentifier`, the GeneralName form of a URL. */
const uriTag = 0x86

/**
 * The `uniformResourceIdentifier` names of a certificate's complete CRL distribution points
 * (those without `reasons` or `cRLIssuer`), in certificate order, split into those the library
 * fetches (`http:` and `https:`) and the others (`ldap:`, `file:`, …), which it never fetches:
 * an LDAP directory or a local file is not the library's to reach, so such a point alone leaves
 * the status to another source (OCSP) or unavailable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export function crlDistributionPointUris(certificate: ParsedCertificate): {
  readonly fetchable: readonly string[]
  readonly other: readonly string[]
} {
  const fetchable: string[] = []
  const other: string[] = []
  for (const name of certificate.crlDistributionPointNames) {
    const element = readDerDocument(name, 'invalid-certificate')
    if (element.tag !== uriTag) continue
    const uri = latin1(element.content)
    if (isHttpUrl(uri)) fetchable.push(uri)
    else other.push(uri)
  }
  return { fetchable, other }
}

/** An absolute `http:` or `https:` URL with a host. */
export function isHttpUrl(uri: string): boolean {
  if (!URL.canParse(uri)) return false
  const url = new URL(uri)
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
}
