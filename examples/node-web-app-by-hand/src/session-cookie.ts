import type { IncomingMessage } from 'node:http'

/** The cookie that carries the session id. */
export const sessionCookieName = 'fhir_app_session'

/** Reads the session id from the request's `Cookie` header. */
export function readSessionId(request: IncomingMessage): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=')
    if (separator > 0 && pair.slice(0, separator).trim() === sessionCookieName) {
      return pair.slice(separator + 1).trim()
    }
  }
  return undefined
}

/**
 * The `Set-Cookie` value for a session id.
 *
 * - `HttpOnly`: page scripts cannot read the id, so an XSS bug cannot steal the session;
 * - `SameSite=Lax`: the browser still sends it on the top-level GET redirect back from the
 *   authorization server (another site), which `Strict` would not, while cross-site POSTs and
 *   embedded requests go without it;
 * - `Secure` whenever the app is served over HTTPS (always, outside local development).
 *
 * @see https://httpwg.org/specs/rfc6265.html#sane-set-cookie
 */
export function sessionCookie(
  id: string,
  options: { readonly secure: boolean; readonly maxAgeSeconds: number },
): string {
  const attributes = [
    `${sessionCookieName}=${id}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${options.maxAgeSeconds}`,
  ]
  if (options.secure) attributes.push('Secure')
  return attributes.join('; ')
}
