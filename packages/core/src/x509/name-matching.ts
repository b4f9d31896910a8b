/**
 * Whether one name lies within one name-constraint subtree, form by form (RFC 5280 §4.2.1.10).
 * Each function answers for two names of the same form; grouping by form and the
 * permitted/excluded logic live in `name-constraints.ts`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.10
 */

import { bytesEqual } from '../crypto/bytes.js'
import { hasEmptyLabel, readUriHost } from '../http/uri-host.js'
import { readDerChildren, readDerDocument } from './der.js'

/**
 * `dNSName`: any name made by adding zero or more labels on the left of the base
 * (`example.com` covers `example.com` and `www.example.com`, not `badexample.com`). A base with
 * a leading period covers only names below it (`.example.com` covers `www.example.com`, not
 * `example.com`), the reading OpenSSL and most validators share. An empty base covers every
 * name. Comparison ignores ASCII case. A name with an empty label (`api.evil.org.`, whose
 * trailing dot would carry it out of an excluded `evil.org`) or a base with one after its
 * leading period cannot be placed: `undefined`.
 */
export function dnsNameWithin(name: string, base: string): boolean | undefined {
  if (hasEmptyLabel(name)) return undefined
  if (base.length === 0) return true
  if (hasEmptyLabel(base.startsWith('.') ? base.slice(1) : base)) return undefined
  const candidate = name.toLowerCase()
  const subtree = base.toLowerCase()
  if (subtree.startsWith('.'))
    return candidate.length > subtree.length && candidate.endsWith(subtree)
  if (candidate === subtree) return true
  return (
    candidate.endsWith(subtree) && candidate.charAt(candidate.length - subtree.length - 1) === '.'
  )
}

/**
 * `rfc822Name`: a base with `@` is one mailbox (local part compared exactly, host ignoring
 * case); a base without `@` is every mailbox on that host, or with a leading period every
 * mailbox on hosts below it. An address without `@` cannot be placed and is `undefined`.
 */
export function emailAddressWithin(address: string, base: string): boolean | undefined {
  const at = address.lastIndexOf('@')
  if (at < 0) return undefined
  const local = address.slice(0, at)
  const host = address.slice(at + 1).toLowerCase()
  const baseAt = base.lastIndexOf('@')
  if (baseAt >= 0) {
    if (baseAt > 0 && base.slice(0, baseAt) !== local) return false
    return host === base.slice(baseAt + 1).toLowerCase()
  }
  const subtree = base.toLowerCase()
  if (subtree.startsWith('.')) return host.length > subtree.length && host.endsWith(subtree)
  return host === subtree
}

/**
 * `uniformResourceIdentifier`: the constraint applies to the host of the URI, as the WHATWG URL
 * parser that sends the requests reads it (see `readUriHost`). A base with a leading period
 * covers hosts below it; otherwise the host must equal the base, ignoring case. A URI without a
 * DNS host (no authority, an IP address) or whose host text the parser reads differently
 * (backslash, percent-encoding, user info, trailing dot…), and a base that is no host name,
 * cannot be checked and are `undefined`: RFC 5280 says such a certificate must be rejected when
 * URI constraints apply.
 */
export function uriWithin(uri: string, base: string): boolean | undefined {
  const name = uriDomainName(uri)
  const subtree = uriConstraintDomain(base)
  if (name === undefined || subtree === undefined) return undefined
  const host = name.toLowerCase()
  return subtree.startsWith('.') ? host.endsWith(subtree) : host === subtree
}

/** An IP literal, or the dotted-decimal IPv4 form the WHATWG parser gives every IPv4 host. */
const ipHostPattern = /^\[|^\d+\.\d+\.\d+\.\d+$/

/**
 * The DNS host name of `uri` as `readUriHost` reads it, or `undefined` when it has none:
 * no host, a refused one, or an IP address (RFC 5280 §4.2.1.10 constrains URIs by host name).
 */
export function uriDomainName(uri: string): string | undefined {
  const host = readUriHost(uri)
  return host && !ipHostPattern.test(host) ? host : undefined
}

/**
 * The base of a `uniformResourceIdentifier` name constraint, lower-cased, or `undefined` when it
 * is not what RFC 5280 §4.2.1.10 allows there: a DNS host name, or a domain written with a
 * leading period (`.good.org`), that the WHATWG parser reads unchanged. A base it would rewrite
 * (`evil%2Eorg`, `evil.org.`, a full URI, an IP address) cannot be compared with the hosts
 * requests go to, so the names under it cannot be placed.
 */
export function uriConstraintDomain(base: string): string | undefined {
  const domain = base.startsWith('.') ? base.slice(1) : base
  const host = uriDomainName(`https://${domain}/`)
  return host !== undefined && host === domain.toLowerCase() ? base.toLowerCase() : undefined
}

/**
 * `iPAddress`: a name of 4 (IPv4) or 16 (IPv6) octets is within a base of twice that length
 * (address, then mask) when it equals the address under the mask. The other family never is.
 */
export function ipAddressWithin(address: Uint8Array, base: Uint8Array): boolean {
  if (base.length !== address.length * 2) return false
  for (let index = 0; index < address.length; index++) {
    const mask = base[address.length + index] as number
    if (((address[index] as number) & mask) !== ((base[index] as number) & mask)) return false
  }
  return true
}

/**
 * `directoryName`: the base's relative distinguished names are the first ones of the name, each
 * byte for byte. Comparing bytes rather than RFC 4518-prepared strings is stricter: a name
 * written with another string type or case is outside the subtree.
 */
export function directoryNameWithin(name: Uint8Array, base: Uint8Array): boolean {
  const names = relativeNames(name)
  const bases = relativeNames(base)
  if (bases.length > names.length) return false
  return bases.every((relativeName, index) => bytesEqual(relativeName, names[index] as Uint8Array))
}

/** The DER of each RDN of a `Name` (already validated by the certificate parser). */
function relativeNames(name: Uint8Array): Uint8Array[] {
  return readDerChildren(readDerDocument(name)).map((relativeName) => relativeName.bytes)
}
