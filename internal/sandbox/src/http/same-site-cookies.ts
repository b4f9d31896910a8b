import type { ServerResponse } from 'node:http'

type HeaderValue = Parameters<ServerResponse['setHeader']>[1]

/**
 * Rewrites `SameSite=None` to `SameSite=Lax` in every `Set-Cookie` the response sends.
 *
 * oidc-provider insists on `SameSite=None` for its session cookie once authorize-POST is on, but
 * over plain-HTTP loopback it cannot add `Secure`, and browsers drop `SameSite=None` cookies
 * without `Secure`: a real browser would lose the session between the login and consent hops
 * ("interaction session and authentication session mismatch"). `Lax` is kept on the top-level
 * redirects of the flow, so both browsers and the headless user agent complete it; an
 * authorize-POST from another site simply starts a fresh session, which every sandbox
 * authorization does anyway.
 */
export function relaxSameSiteNoneCookies(response: ServerResponse): void {
  const setHeader = response.setHeader.bind(response)
  response.setHeader = (name: string, value: HeaderValue) =>
    setHeader(name, name.toLowerCase() === 'set-cookie' ? relax(value) : value)
}

function relax(value: HeaderValue): HeaderValue {
  if (Array.isArray(value)) return value.map(relaxOne)
  return typeof value === 'string' ? relaxOne(value) : value
}

function relaxOne(cookie: string): string {
  return cookie.replace(/;\s*samesite=none/i, '; samesite=lax')
}
