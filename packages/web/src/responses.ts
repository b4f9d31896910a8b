/**
 * The responses the web app sends. None carries a token, a code or a secret: bodies are short
 * fixed texts naming at most an OAuth error code, and no response is cached or leaks its URL
 * (which, for a callback, holds the authorization code) as a `Referer`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.2.4 RFC 9700 §4.2.4 (code leakage via Referer)
 */

/** Headers every response of the web app carries. */
function baseHeaders(setCookies: readonly string[]): Headers {
  const headers = new Headers({
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  })
  for (const cookie of setCookies) headers.append('set-cookie', cookie)
  return headers
}

/** A redirect (`302` after a GET, `303` after the logout POST) to `location`. */
export function redirect(
  status: 302 | 303,
  location: string,
  setCookies: readonly string[] = [],
): Response {
  const headers = baseHeaders(setCookies)
  headers.set('location', location)
  return new Response(null, { status, headers })
}

/** A plain-text refusal or failure. */
export function plainText(
  status: number,
  text: string,
  extraHeaders: Readonly<Record<string, string>> = {},
  setCookies: readonly string[] = [],
): Response {
  const headers = baseHeaders(setCookies)
  headers.set('content-type', 'text/plain; charset=utf-8')
  headers.set('x-content-type-options', 'nosniff')
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value)
  return new Response(`${text}\n`, { status, headers })
}

/** `405`, naming the one method the route takes. */
export function methodNotAllowed(allowed: 'GET' | 'POST'): Response {
  return plainText(405, `Method not allowed: use ${allowed}`, { allow: allowed })
}
