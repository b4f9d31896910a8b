import { optionalString } from '../checks/non-blank-string.js'
import { requireNonBlankString } from '../checks/required-string.js'

/** The parts of an authorization code request and its exchange that OAuth itself defines. */
export interface CodeRequestParts {
  readonly clientId?: unknown
  readonly redirectUri?: unknown
}

/**
 * The first parameters of every authorization code request — `response_type=code`,
 * `client_id`, `redirect_uri` — which SMART and UDAP then follow with their own.
 *
 * @throws ConfigurationError on `clientId` or `redirectUri`.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 RFC 6749 §4.1.1
 * @internal
 */
export function codeRequestParameters(parts: CodeRequestParts): Record<string, string> {
  return {
    response_type: 'code',
    client_id: requireNonBlankString(parts.clientId, 'clientId'),
    redirect_uri: requireNonBlankString(parts.redirectUri, 'redirectUri'),
  }
}

/**
 * Adds the OpenID Connect `nonce` to authorization request parameters when one is given (a
 * blank one is not sent).
 *
 * @throws ConfigurationError on `nonce` when it is not a string.
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest OIDC Core §3.1.2.1
 * @internal
 */
export function addNonce(params: Record<string, string>, nonce: unknown): void {
  const value = optionalString(nonce, 'nonce')
  if (value) params.nonce = value
}

/** What exchanging a code needs. */
export interface CodeExchangeParts {
  readonly code?: unknown
  readonly codeVerifier?: unknown
  readonly redirectUri?: unknown
}

/**
 * The `authorization_code` grant of a token request: `grant_type`, `code`, `redirect_uri`
 * (identical to the request's) and the PKCE `code_verifier`, with the two values that must never
 * reach a log or an error.
 *
 * @throws ConfigurationError on `code`, `codeVerifier` or `redirectUri`, before any request.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3 RFC 6749 §4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.5 RFC 7636 §4.5
 * @internal
 */
export function authorizationCodeGrant(parts: CodeExchangeParts): {
  readonly form: Record<string, string>
  readonly secrets: readonly string[]
} {
  const code = requireNonBlankString(parts.code, 'code')
  const codeVerifier = requireNonBlankString(parts.codeVerifier, 'codeVerifier')
  return {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: requireNonBlankString(parts.redirectUri, 'redirectUri', false),
      code_verifier: codeVerifier,
    },
    secrets: [code, codeVerifier],
  }
}
