import { AuthorizationError, ConfigurationError, redactSecrets } from '@fhir-auth/core/essentials'

/** The parameters of an authorization response, as the callback URL carried them. */
export interface AuthorizationCallback {
  readonly code: string | undefined
  readonly state: string | undefined
  /**
   * RFC 9207's `iss` as given; `undefined` only when the parameter is not there at all. Given
   * empty or more than once it is present and cannot be the issuer (the values joined by a space).
   */
  readonly iss: string | undefined
  readonly error: string | undefined
  readonly errorDescription: string | undefined
  readonly errorUri: string | undefined
}

/**
 * Reads the query of a callback URL (`https://app.example/callback?code=…&state=…`, a `URL`,
 * `URLSearchParams`, or just the query string). A parameter given twice counts as absent: an
 * ambiguous response is not guessed at. Except `iss`: absent, it may be skipped (a server that
 * does not send it); given twice, it is there and names no one issuer, so it fails RFC 9207.
 *
 * @throws ConfigurationError on `callbackUrl` when it is none of these.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 RFC 6749 §4.1.2
 */
export function readCallback(callbackUrl: unknown): AuthorizationCallback {
  const query = queryOf(callbackUrl)
  const single = (name: string) => {
    const values = query.getAll(name)
    return values.length === 1 && values[0] !== '' ? values[0] : undefined
  }
  return {
    code: single('code'),
    state: single('state'),
    iss: query.has('iss') ? query.getAll('iss').join(' ') : undefined,
    error: single('error'),
    errorDescription: single('error_description'),
    errorUri: single('error_uri'),
  }
}

function queryOf(callbackUrl: unknown): URLSearchParams {
  if (callbackUrl instanceof URLSearchParams) return callbackUrl
  if (callbackUrl instanceof URL) return callbackUrl.searchParams
  if (typeof callbackUrl === 'string') {
    // A full or relative callback URL, "?code=…", or a bare query string; never the fragment.
    const withoutFragment = callbackUrl.trim().split('#')[0] ?? ''
    const queryStart = withoutFragment.indexOf('?')
    return new URLSearchParams(
      queryStart === -1 ? withoutFragment : withoutFragment.slice(queryStart + 1),
    )
  }
  throw new ConfigurationError({
    invalidAttribute: 'callbackUrl',
    invalidValue: callbackUrl === null ? 'null' : typeof callbackUrl,
    message: 'callbackUrl must be the callback URL (a string or URL) or its URLSearchParams',
  })
}

/** What the callback is checked against. */
export interface CallbackExpectations {
  /** The server's issuer, for RFC 9207's `iss`; `undefined` when discovery names none. */
  readonly issuer: string | undefined
  /** The server says it always sends `iss` (`authorization_response_iss_parameter_supported`). */
  readonly issRequired: boolean
  /** Why the issuer the server names is not used (not bound to it): then every `iss` fails. */
  readonly unbound?: string | undefined
}

/**
 * The checks that come before the state lookup, in the order of docs/guides/tokens-over-time.md (RFC 9207 for `iss`): an `error` parameter, then
 * a missing `state`.
 *
 * @throws AuthorizationError with the server's `error` fields, or `state_mismatch`.
 */
export function checkCallbackBeforeState(callback: AuthorizationCallback): string {
  if (callback.error !== undefined) {
    // A code in the same callback is cut out of the server's text (before any truncation).
    const withoutCode = (text: string | undefined) =>
      text === undefined ? undefined : redactSecrets(text, [callback.code])
    throw new AuthorizationError({
      error: redactSecrets(callback.error, [callback.code]),
      errorDescription: withoutCode(callback.errorDescription),
      errorUri: withoutCode(callback.errorUri),
      state: callback.state,
    })
  }
  if (callback.state === undefined) {
    throw new AuthorizationError({
      error: 'state_mismatch',
      message: 'the authorization callback has no state: it cannot be matched to a launch',
    })
  }
  return callback.state
}

/**
 * The checks after the launch was found: RFC 9207 `iss`, then `code`.
 *
 * @throws AuthorizationError `iss_mismatch` or `missing_code`.
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4 RFC 9207 §2.4
 */
export function checkCallbackAfterState(
  callback: AuthorizationCallback,
  expected: CallbackExpectations,
): string {
  const { iss } = callback
  if (
    (iss !== undefined && iss !== expected.issuer) ||
    (iss === undefined && expected.issRequired)
  ) {
    throw new AuthorizationError({
      error: 'iss_mismatch',
      state: callback.state,
      message:
        iss === undefined
          ? `the authorization response has no iss although ${expected.issuer ?? 'the server'} always sends one (RFC 9207)`
          : expected.unbound === undefined
            ? `the authorization response comes from another issuer than ${expected.issuer} (RFC 9207)`
            : `the authorization response names an issuer, but ${expected.unbound} (RFC 9207)`,
    })
  }
  if (callback.code === undefined) {
    throw new AuthorizationError({
      error: 'missing_code',
      state: callback.state,
      message: 'the authorization callback has neither a code nor an error',
    })
  }
  return callback.code
}
