import type { ServerResponse } from 'node:http'

/**
 * `redirectUri` with `parameters` added to its query (RFC 6749 §4.1.2: the redirection URI's
 * own query is kept). `undefined` values are left out.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export function redirectUrlWith(
  redirectUri: string,
  parameters: Readonly<Record<string, string | undefined>>,
): string {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.set(name, value)
  }
  return url.href
}

/** Answers with a 302 redirect to `location`, uncached, with optional `Set-Cookie` values. */
export function sendRedirect(
  response: ServerResponse,
  location: string,
  cookies: readonly string[] = [],
): void {
  response.writeHead(302, {
    location,
    'cache-control': 'no-store',
    ...(cookies.length === 0 ? {} : { 'set-cookie': [...cookies] }),
  })
  response.end()
}
