import { checkUrl } from '@fhir-auth/core/essentials'
import { readUriHost } from '@fhir-auth/core/internal/checks'

/** RFC 3986 §3.1: a scheme is a letter followed by letters, digits, `+`, `-` or `.`. */
const absoluteUriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/

/**
 * True for an absolute URI (RFC 3986 §4.3): a scheme, a colon and a non-empty rest without
 * whitespace. `http` and `https` URIs must also parse as URLs with a host. UDAP identifies
 * clients and organisations by URIs of any scheme (`https:`, `urn:`, `did:`…), so no scheme
 * is preferred here. A URI with a host must name it as the WHATWG URL parser reads it (no
 * backslash, percent-encoding or user info in the authority, no trailing dot): UDAP compares
 * these URIs with certificate SANs as exact strings, and name constraints judge a SAN by the
 * host that parser reads.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-4.3
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.10
 * @internal
 */
export function isAbsoluteUri(value: unknown): value is string {
  if (typeof value !== 'string' || !absoluteUriPattern.test(value)) return false
  if (readUriHost(value) === undefined) return false
  const scheme = value.slice(0, value.indexOf(':')).toLowerCase()
  if (scheme !== 'http' && scheme !== 'https') return true
  return URL.canParse(value) && new URL(value).hostname !== ''
}

/**
 * An endpoint member as the client reads it: a blank string (`""`, spaces) counts as absent
 * (ADR 0003), so it is never resolved or reported as a malformed URL.
 *
 * @internal
 */
export function endpointMember(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value
}

/**
 * Describes why an endpoint URL is not usable under the transport policy (HTTPS, or loopback
 * HTTP with `allowInsecureLocalhost`), or `undefined` when it is. Blank counts as missing.
 *
 * @internal
 */
export function endpointProblem(
  value: unknown,
  allowInsecureLocalhost: boolean,
): string | undefined {
  if (endpointMember(value) === undefined) return 'is missing'
  if (typeof value !== 'string') return 'is not a string'
  const problem = checkUrl(value, allowInsecureLocalhost)
  if (problem === 'invalid-url') return 'is not an absolute URL without user info'
  if (problem === 'insecure-url') {
    return allowInsecureLocalhost
      ? 'is not an HTTPS URL (or HTTP on a loopback host)'
      : 'is not an HTTPS URL'
  }
  return undefined
}

// RFC 6749 §3.3: scope-token = 1*NQCHAR, NQCHAR = %x21 / %x23-5B / %x5D-7E.
const scopeTokenPattern = /^[\x21\x23-\x5B\x5D-\x7E]+$/

/**
 * True for one OAuth scope token: printable ASCII without space, `"` or `\`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3
 * @internal
 */
export function isScopeToken(value: unknown): value is string {
  return typeof value === 'string' && scopeTokenPattern.test(value)
}
