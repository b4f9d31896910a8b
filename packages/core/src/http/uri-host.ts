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

/**
 * What a URI must do for its host to be used, for messages (`baseUrl must…`). Kept short: this
 * module loads with every `ClientConfig`.
 */
export const uriHostRule = 'must name its host as the WHATWG URL parser reads it'

/**
 * The host of `uri` as the WHATWG URL parser reads it (its `hostname`, exactly; `''` when the URI
 * has none: `urn:…`, `mailto:…`, `file:///…`), or `undefined` when the URI is refused because its
 * text does not spell that host where RFC 3986 puts it: right after `scheme://` (ASCII case
 * aside), followed by a port, a path, a query, a fragment or nothing. So user info, a `\`, a
 * control character or a space before the end of the authority, a host without `//`, a host the
 * parser decodes or rewrites (percent-encoding, IDNA, IPv4 numbers, IPv6 forms) are refused, and
 * so are a host that keeps a `%` (the opaque host of a non-special scheme) and a host name with
 * an empty label (a trailing dot).
 */
export function readUriHost(uri: string): string | undefined {
  if (!URL.canParse(uri)) return undefined
  const { protocol, hostname } = new URL(uri)
  if (hostname === '') return hostname
  const written = `${protocol}//${hostname}`
  const text = uri.slice(0, written.length)
  // Printable ASCII only, so that no other character lower-cases to the host's (U+212A to `k`).
  const spelled =
    !/[^!-~]/.test(text) &&
    text.toLowerCase() === written.toLowerCase() &&
    /^(:\d*)?([/?#]|$)/.test(uri.slice(written.length))
  return spelled && !hostname.includes('%') && !hasEmptyLabel(hostname) ? hostname : undefined
}

/**
 * True when a DNS name has an empty label: a leading or trailing dot, `..`, or nothing at all.
 * `api.evil.org.` names the same host as `api.evil.org` for DNS, yet is not within `evil.org`
 * for a suffix comparison; such names are refused rather than placed.
 */
export function hasEmptyLabel(name: string): boolean {
  return name.split('.').includes('')
}
