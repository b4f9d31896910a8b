/**
 * The two cookies of a SMART web app: the session cookie (only the random session id) and the
 * launch cookie (the `state` of the launches this browser began). Reading is defensive: a
 * malformed, oversized or repeated cookie reads as absent, never as an error.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-4.1 RFC 6265 §4.1 (Set-Cookie)
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.3.2 the `__Host-` prefix
 */

/** The cookie settings a web app runs with, fixed when it is made. */
export interface CookieSettings {
  /** The base name (`fhir-auth`); `__Host-` is put in front of it when the cookie is `Secure`. */
  readonly name: string
  /** `true` or `false` forces `Secure`; `undefined` decides per request ({@link isSecureRequest}). */
  readonly secure: boolean | undefined
  /** The session cookie's `Max-Age`. */
  readonly maxAgeSeconds: number
}

/** The names and attributes of both cookies for one request. */
export interface RequestCookies {
  readonly secure: boolean
  readonly sessionName: string
  readonly launchName: string
}

/** A cookie name: an RFC 7230 token (RFC 6265 §4.1.1 `cookie-name`). */
export const cookieNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** How long a launch may wait for its callback: the lifetime of the launch kept in the store. */
export const launchCookieMaxAgeSeconds = 600

/**
 * Loopback hosts, where browsers treat plain `http:` as a secure context and `Secure` would be lost.
 * Core's `isLoopbackHostname` is the same rule; the web layer sits on the client only (package-boundaries test),
 * and a WHATWG `hostname` has no 127.x octet over 255, so this one pattern is enough.
 */
const loopbackHost = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/

/**
 * `Secure` unless the request came over plain `http:` to a loopback host (a developer's
 * machine). Behind a TLS-terminating proxy, `nodeHandler` reads the scheme the browser used from
 * `X-Forwarded-Proto` / `Forwarded` (see `fetchRequestFrom`); with `web.handle`, the request's
 * URL must carry it, as frameworks behind a proxy make it; `cookie.secure: true` forces it.
 */
export function isSecureRequest(url: URL): boolean {
  return !(url.protocol === 'http:' && loopbackHost.test(url.hostname))
}

/** The cookie names and `Secure` flag for a request. */
export function requestCookies(settings: CookieSettings, url: URL): RequestCookies {
  const secure = settings.secure ?? isSecureRequest(url)
  const sessionName = secure ? `__Host-${settings.name}` : settings.name
  return { secure, sessionName, launchName: `${sessionName}-launch` }
}

/**
 * The value of the cookie `name` in a `Cookie` header, or `undefined` when it is absent, sent
 * more than once (a cookie planted for a parent domain or another path shadows the real one:
 * neither is trusted) or not a plain cookie value.
 */
export function readCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined
  let found: string | undefined
  let count = 0
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=')
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue
    count += 1
    found = pair.slice(separator + 1).trim()
  }
  if (count !== 1 || found === undefined || !cookieValuePattern.test(found)) return undefined
  return found
}

/** RFC 6265 §4.1.1 `cookie-octet`s, at most 4 KiB (what browsers keep). */
const cookieValuePattern = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]{1,4096}$/

/** A `Set-Cookie` header: `HttpOnly; SameSite=Lax; Path=/`, and `Secure` when the request is. */
export function setCookie(
  name: string,
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): string {
  const attributes = [`${name}=${value}`, 'HttpOnly', 'SameSite=Lax', 'Path=/']
  attributes.push(`Max-Age=${maxAgeSeconds}`)
  if (secure) attributes.push('Secure')
  return attributes.join('; ')
}

/** A `Set-Cookie` header that removes the cookie (same name, path and `Secure`, `Max-Age=0`). */
export function clearCookie(name: string, secure: boolean): string {
  return setCookie(name, '', 0, secure)
}
