import { readUriHost, uriHostRule } from './uri-host.js'

/**
 * True for loopback hosts: `localhost`, any IPv4 address in 127.0.0.0/8, and IPv6 `::1`.
 * Takes a WHATWG URL `hostname` (lowercased, IPv6 in brackets).
 */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  const octets = hostname.split('.')
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  )
}

/** Parses an absolute URL; `undefined` for relative or malformed input. */
export function parseAbsoluteUrl(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined
  return new URL(value)
}

/** Why a URL is not usable for a request, or `undefined` when it is. */
export type UrlProblem = 'invalid-url' | 'insecure-url'

/**
 * Checks a URL against the transport policy: HTTPS, or HTTP to a loopback host when
 * `allowInsecureLocalhost` is set (an explicit development policy). Anything else —
 * `javascript:`, `data:`, `file:`, plain HTTP to another host — is refused, and so is a URL
 * with user info (`https://user:pass@…`, ADR 0003), configured or discovered: its credentials
 * would travel to the server and into logs (`invalid-url`).
 *
 * @returns `undefined` when usable, else the problem.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 */
export function checkUrl(value: string, allowInsecureLocalhost: boolean): UrlProblem | undefined {
  const url = parseAbsoluteUrl(value)
  if (url === undefined || url.username !== '' || url.password !== '') return 'invalid-url'
  if (url.protocol === 'https:' && url.hostname !== '') return undefined
  if (url.protocol === 'http:' && allowInsecureLocalhost && isLoopbackHostname(url.hostname)) {
    return undefined
  }
  return 'insecure-url'
}

/** True when {@link checkUrl} finds no problem. */
export function isUsableUrl(value: string, allowInsecureLocalhost: boolean): boolean {
  return checkUrl(value, allowInsecureLocalhost) === undefined
}

/**
 * A base URL as every flow uses it: without trailing slashes. A trailing `/` on a FHIR base URL
 * is not significant (ADR 0003): SMART `aud`, the discovery URLs and the UDAP `iss`
 * comparison all use this form, so `https://ehr.example.org/fhir/` and
 * `https://ehr.example.org/fhir` name the same server.
 *
 * @example
 * ```ts
 * normalizeBaseUrl('https://ehr.example.org/fhir/') // 'https://ehr.example.org/fhir'
 * ```
 */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '')
}

/**
 * A URL-like text with its user info (if any) replaced, safe to show in a message or error
 * field. Text-based, so URLs the parser refuses (a bad port, a script scheme) are covered too:
 * everything between the scheme and the last `@` of the authority goes, as a URL parser reads it.
 */
export function withoutUserInfo(value: string): string {
  return value.replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:[\\/]*)[^/\\?#]*@/, '$1[REDACTED]@')
}

/**
 * Why a URL the caller configured (base URL, issuer, endpoints, JWKS URL, registration endpoint)
 * is refused, as the end of a sentence, or `undefined` when it is acceptable. The transport
 * policy of {@link checkUrl}, applied when the configuration is built rather than when the URL
 * is first fetched (an `http://` authorize URL or `jku` is never fetched by the library at
 * all), plus: no user info, since credentials in a URL end up in logs and error messages, and
 * a host the WHATWG URL parser reads as written (no backslash, percent-encoding or control
 * characters in the authority, no trailing dot: `readUriHost`), so the host a reader
 * of the configuration sees is the one requests go to.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.2.1 (user information is deprecated)
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 */
export function configuredUrlProblem(
  value: string,
  allowInsecureLocalhost: boolean,
): string | undefined {
  const url = parseAbsoluteUrl(value)
  if (url === undefined || !(url.protocol === 'https:' || url.protocol === 'http:')) {
    return 'must be an absolute http(s) URL'
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not contain user info (user:password@): credentials in a URL end up in logs'
  }
  const hostProblem = configuredHostProblem(value)
  if (hostProblem !== undefined) return hostProblem
  if (checkUrl(value, allowInsecureLocalhost) !== undefined) {
    return `must be HTTPS ${insecureUrlAdvice(value, allowInsecureLocalhost)}`
  }
  return undefined
}

/**
 * Why the host of a configured URL or URI (including a `redirectUri` of any scheme) is refused,
 * as the end of a sentence, or `undefined`: its host must read the same to RFC 3986 and to the
 * WHATWG URL parser that sends the requests (`readUriHost`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.2
 * @see https://url.spec.whatwg.org/#concept-url-parser
 */
export function configuredHostProblem(value: string): string | undefined {
  return readUriHost(value) === undefined ? uriHostRule : undefined
}

/**
 * The parenthesis that follows "HTTPS is required" for a URL the policy refused: the option
 * that lifts the rule only when it would help (a loopback host without `allowInsecureLocalhost`),
 * else the rule itself, so no message suggests the option for a host it cannot open.
 */
export function insecureUrlAdvice(value: string, allowInsecureLocalhost: boolean): string {
  const url = parseAbsoluteUrl(value)
  const loopbackHttp = url?.protocol === 'http:' && isLoopbackHostname(url.hostname)
  return loopbackHttp && !allowInsecureLocalhost
    ? '(loopback HTTP needs allowInsecureLocalhost)'
    : '(plain HTTP is allowed only to a loopback host)'
}
