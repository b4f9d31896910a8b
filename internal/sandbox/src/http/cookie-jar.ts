interface StoredCookie {
  readonly host: string
  readonly name: string
  readonly value: string
  readonly path: string
}

/**
 * The smallest cookie store that carries the sandboxes' session cookies across the hops of an
 * authorization (oidc-provider's authorize → interaction → resume; a UDAP data holder → IdP →
 * data holder).
 *
 * Cookies are host-only (RFC 6265 §5.3 step 6: the `Domain` attribute is ignored) and, as in
 * browsers, not scoped by port: every sandbox on `127.0.0.1` sees them. It keeps name, value
 * and path (§5.1.4 path matching) and honours deletion by an expiry in the past or
 * `Max-Age=0`; `Secure` and `SameSite` do not matter on loopback and are ignored.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.2
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>()

  /** Stores the cookies of every `Set-Cookie` header of a response to `requestUrl`. */
  store(setCookieHeaders: readonly string[], requestUrl: URL): void {
    for (const header of setCookieHeaders) this.#storeOne(header, requestUrl)
  }

  /** The `Cookie` header value for a request to `url`, or `undefined` when none match. */
  headerFor(url: URL): string | undefined {
    const matching = [...this.#cookies.values()].filter(
      (cookie) => cookie.host === url.hostname && pathMatches(url.pathname, cookie.path),
    )
    if (matching.length === 0) return undefined
    return matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
  }

  #storeOne(header: string, requestUrl: URL): void {
    const [pair = '', ...attributes] = header.split(';')
    const separator = pair.indexOf('=')
    if (separator <= 0) return
    const name = pair.slice(0, separator).trim()
    const value = pair.slice(separator + 1).trim()
    let path = defaultPath(requestUrl.pathname)
    let expired = false
    for (const attribute of attributes) {
      const [attributeName = '', attributeValue = ''] = attribute.split('=', 2)
      const key = attributeName.trim().toLowerCase()
      if (key === 'path' && attributeValue.startsWith('/')) path = attributeValue.trim()
      if (key === 'max-age' && Number(attributeValue) <= 0) expired = true
      if (key === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true
    }
    const host = requestUrl.hostname
    const key = `${host}\u0000${name}\u0000${path}`
    if (expired) this.#cookies.delete(key)
    else this.#cookies.set(key, { host, name, value, path })
  }
}

/** RFC 6265 §5.1.4: the directory of the request path. */
function defaultPath(requestPath: string): string {
  const lastSlash = requestPath.lastIndexOf('/')
  return lastSlash <= 0 ? '/' : requestPath.slice(0, lastSlash)
}

/** RFC 6265 §5.1.4 path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/'
}
