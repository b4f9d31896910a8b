import type { CookieOptions, Request } from 'express'

/** The cookie naming the launch this browser began; sent back to `/callback` only. */
export const launchBindingCookie = 'fhir_launch_binding'
/** The cookie naming this browser's signed-in session. */
export const sessionCookie = 'fhir_session'

/**
 * Reads one cookie from the request's `Cookie` header (Express itself parses no cookies; the
 * `cookie-parser` middleware would do the same).
 */
export function readCookie(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=')
    if (separator > 0 && pair.slice(0, separator).trim() === name) {
      return pair.slice(separator + 1).trim()
    }
  }
  return undefined
}

/**
 * The attributes of both cookies:
 *
 * - `HttpOnly`: page scripts cannot read them, so an XSS bug cannot steal them;
 * - `SameSite=Lax`: the browser still sends them on the top-level GET redirect back from the
 *   authorization server (another site), which `Strict` would not, while cross-site POSTs and
 *   embedded requests go without them;
 * - `Secure` whenever the app is served over HTTPS (always, outside local development).
 *
 * @see https://httpwg.org/specs/rfc6265.html#sane-set-cookie
 */
export function cookieOptions(options: {
  readonly secure: boolean
  readonly path: string
  readonly maxAgeSeconds: number
}): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    path: options.path,
    maxAge: options.maxAgeSeconds * 1000,
  }
}
