import { ConfigurationError } from '@fhir-auth/core'

/**
 * The parameters of the URL the browser was redirected to: its query, or — for
 * `response_mode=fragment` — its fragment when the query has no `state`. The checks themselves
 * (error, state, RFC 9207 `iss`, code) are `client.completeAuthorization`'s.
 *
 * @throws ConfigurationError `redirectUrl` when the text is not an absolute URL (the text is
 *   not echoed: it may hold a code).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export function readRedirectUrl(redirectUrl: string): URLSearchParams {
  let url: URL
  try {
    url = new URL(redirectUrl)
  } catch {
    throw new ConfigurationError({
      invalidAttribute: 'redirectUrl',
      message:
        'the redirect URL is not an absolute URL: paste the whole address the browser was sent to',
    })
  }
  // response_mode=fragment puts the response in the fragment; the query is the default.
  if (!url.searchParams.has('state') && url.hash.length > 1)
    return new URLSearchParams(url.hash.slice(1))
  return url.searchParams
}

/** True when the URL is at the redirect URI (same origin and path), whatever its parameters. */
export function isAtRedirectUri(redirectUrl: string, redirectUri: string): boolean {
  try {
    const actual = new URL(redirectUrl)
    const expected = new URL(redirectUri)
    return actual.origin === expected.origin && actual.pathname === expected.pathname
  } catch {
    return false
  }
}
