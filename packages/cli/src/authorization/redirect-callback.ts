import { ConfigurationError, parseOAuthErrorBody, redactSecrets, TokenError } from '@fhir-auth/core'

/** What the redirect URL is checked against. */
export interface RedirectExpectations {
  /** The `state` of the authorization request this CLI run made (or was given with `--state`). */
  readonly state: string
  /** The authorization server's issuer, for the RFC 9207 `iss` check when the server sends one. */
  readonly issuer: string | undefined
}

/**
 * Reads the authorization code from the URL the browser was redirected to, after the checks
 * that make using it safe, in this order:
 *
 * 1. the text is an absolute URL (query or, for `response_mode=fragment`, fragment parameters);
 * 2. `state` equals the request's `state` (CSRF protection: a mismatch means the URL belongs
 *    to another request, and nothing is exchanged);
 * 3. `iss`, when present, equals the server's issuer (RFC 9207 mix-up protection);
 * 4. an `error` parameter is reported as the server's error;
 * 5. a non-blank `code` is present.
 *
 * @throws ConfigurationError `redirectUrl` when the text is not an absolute URL (the text is
 *   not echoed: it may hold a code).
 * @throws TokenError for every other failed check, with `error` and `errorDescription` when
 *   the server sent them.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 * @see https://www.rfc-editor.org/rfc/rfc9207
 */
export function readAuthorizationCode(redirectUrl: string, expected: RedirectExpectations): string {
  const parameters = redirectParameters(redirectUrl)
  const state = parameters.get('state')
  if (state === null) {
    throw new TokenError({
      message:
        'the redirect URL has no state parameter: it does not answer this authorization request; no code was exchanged',
    })
  }
  if (state !== expected.state) {
    throw new TokenError({
      message:
        'the redirect URL’s state does not match this authorization request (a URL from another attempt, or a forged one); no code was exchanged',
    })
  }
  const issuer = parameters.get('iss')
  if (issuer !== null && expected.issuer !== undefined && issuer !== expected.issuer) {
    throw new TokenError({
      message: `the redirect URL's iss ${JSON.stringify(issuer)} is not the server's issuer ${JSON.stringify(expected.issuer)} (RFC 9207 mix-up protection); no code was exchanged`,
    })
  }
  // A code in the same redirect is cut out of the server's text before the text is clipped.
  const code = parameters.get('code') ?? undefined
  const error = parseOAuthErrorBody(
    {
      error: parameters.get('error') ?? undefined,
      error_description: parameters.get('error_description') ?? undefined,
      error_uri: parameters.get('error_uri') ?? undefined,
    },
    (text) => redactSecrets(text, [code]),
  )
  if (error !== undefined) {
    throw new TokenError({
      error: error.error,
      errorDescription: error.errorDescription,
      errorUri: error.errorUri,
      message: `the authorization server refused the request: ${error.error}${error.errorDescription === undefined ? '' : ` (${error.errorDescription})`}`,
    })
  }
  if (code === undefined || code.trim() === '') {
    throw new TokenError({ message: 'the redirect URL has no authorization code' })
  }
  return code
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

function redirectParameters(redirectUrl: string): URLSearchParams {
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
