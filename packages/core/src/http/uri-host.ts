/**
 * The host of a URI, read strictly: the one rule behind certificate URI names, URI name
 * constraints and configured URLs.
 *
 * Two parsers read a URI's host. RFC 3986 (and so RFC 5280 name constraints, and OpenSSL) takes
 * the text between `//` and the first `/`, `?` or `#`, after user info, before the port. The
 * WHATWG URL parser, which sends the requests, decodes percent-encoding, reads `\` as `/`, drops
 * tabs and newlines, ignores missing or extra slashes after a special scheme, maps IPv4 numbers
 * and IDNA labels to their canonical forms. Where the two disagree, a certificate constrained to
 * `.good.org` can name `https://evil.example\.good.org/`, whose requests go to `evil.example`.
 * So a host is used only when both parsers read the same text (ASCII case aside: hosts are
 * case-insensitive); every other URI is refused, as is a DNS name with an empty label (a
 * trailing dot, `..`), which no suffix comparison of names can place.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.10
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.2
 * @see https://url.spec.whatwg.org/#concept-url-parser
 */

/** How {@link readUriHost} reads a URI. */
export type UriHost =
  /** A host both parsers read alike: `host` is the WHATWG `hostname`, exactly. */
  | { readonly kind: 'domain' | 'ip'; readonly host: string }
  /** No host: no authority (`urn:…`, `mailto:…`) or an empty one (`file:///…`). */
  | { readonly kind: 'none' }
  /** Refused; `problem` ends a sentence that starts with the URI's name. */
  | { readonly kind: 'refused'; readonly problem: string }

/** Scheme, `//`, then the authority up to the first `/`, `?` or `#` (RFC 3986 §3). */
const authorityPattern = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/
/** C0 controls and DEL: the WHATWG parser drops tabs and newlines anywhere, and strips others. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f]/
/** A dotted-decimal IPv4 address: the WHATWG parser's canonical form, not a DNS name. */
const ipv4Pattern = /^\d+\.\d+\.\d+\.\d+$/

/** Authority characters the WHATWG parser reads differently from RFC 3986, and why. */
const authorityRefusals: readonly (readonly [string, string])[] = [
  ['@', 'has user info (@) in its authority'],
  ['\\', 'has a backslash in its authority, which the URL parser reads as "/"'],
  ['%', 'has percent-encoding in its authority, which the URL parser decodes'],
  [' ', 'has a space in its authority'],
]

/**
 * Reads the host of `uri` with the WHATWG URL parser and refuses the URI when the host text
 * RFC 3986 finds differs from that parse (ASCII case aside): control characters anywhere, user
 * info, `\`, `%` or a space in the authority, a host without `//`, a host the parser
 * rewrites (IDNA, IPv4 numbers, IPv6 forms), and DNS names with an empty label (trailing dot).
 */
export function readUriHost(uri: string): UriHost {
  if (controlCharacter.test(uri)) {
    return refused(
      'contains control characters (tab, newline…), which the URL parser drops or rejects',
    )
  }
  const authority = authorityPattern.exec(uri)?.[1]
  const refusal = authorityRefusals.find(([character]) => authority?.includes(character))
  if (refusal !== undefined) return refused(refusal[1])
  if (!URL.canParse(uri)) return refused('is not a URL the WHATWG URL parser accepts')
  const { hostname } = new URL(uri)
  if (authority === undefined) {
    return hostname === ''
      ? { kind: 'none' }
      : refused(`has no "//" authority, yet the URL parser reads the host ${quote(hostname)}`)
  }
  const host = authority.startsWith('[')
    ? authority.slice(0, authority.indexOf(']') + 1)
    : (authority.split(':')[0] as string)
  if (host.toLowerCase() !== hostname.toLowerCase()) {
    return refused(`has the host ${quote(host)}, which the URL parser reads as ${quote(hostname)}`)
  }
  if (host === '') return { kind: 'none' }
  if (host.startsWith('[') || ipv4Pattern.test(host)) return { kind: 'ip', host: hostname }
  if (hasEmptyLabel(host)) {
    return refused(`has an empty label in its host name ${quote(host)} (a trailing dot or "..")`)
  }
  return { kind: 'domain', host: hostname }
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
  const reading = readUriHost(`https://${domain}/`)
  const lowerCased = base.toLowerCase()
  return reading.kind === 'domain' && reading.host === domain.toLowerCase() ? lowerCased : undefined
}

/**
 * True when a DNS name has an empty label: a leading or trailing dot, `..`, or nothing at all.
 * `api.evil.org.` names the same host as `api.evil.org` for DNS, yet is not within `evil.org`
 * for a suffix comparison; such names are refused rather than placed.
 */
export function hasEmptyLabel(name: string): boolean {
  return name.split('.').includes('')
}

/**
 * Why the host of `uri` is refused, as the end of a sentence, or `undefined` when it is not.
 *
 * @see {@link readUriHost}
 */
export function uriHostProblem(uri: string): string | undefined {
  const reading = readUriHost(uri)
  return reading.kind === 'refused' ? reading.problem : undefined
}

function refused(problem: string): UriHost {
  return { kind: 'refused', problem }
}

function quote(text: string): string {
  return JSON.stringify(text)
}
