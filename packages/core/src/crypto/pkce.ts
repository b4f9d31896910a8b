import { ConfigurationError } from '../errors/configuration-error.js'
import { base64UrlEncode } from './base64.js'
import { randomBytes } from './random.js'
import { sha256Base64Url } from './sha256.js'

const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/

/**
 * A fresh PKCE code verifier: 32 random bytes as 43 base64url characters (RFC 7636 §4.1 asks
 * for 43 to 128 unreserved characters; 32 octets is its recommendation).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1
 */
export function generateCodeVerifier(): string {
  return base64UrlEncode(randomBytes(32))
}

/** True for a string of 43–128 RFC 7636 unreserved characters. */
export function isValidCodeVerifier(value: unknown): value is string {
  return typeof value === 'string' && verifierPattern.test(value)
}

/**
 * The S256 code challenge of a verifier: base64url(SHA-256(ASCII(verifier))). `plain` is never
 * produced (SMART 2.2.0 forbids it).
 *
 * @throws ConfigurationError `codeVerifier` when the verifier is not 43–128 unreserved characters.
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2
 */
export async function computeCodeChallenge(codeVerifier: string): Promise<string> {
  if (!isValidCodeVerifier(codeVerifier)) {
    throw new ConfigurationError({
      invalidAttribute: 'codeVerifier',
      invalidValue: describeVerifier(codeVerifier as unknown),
      message: 'codeVerifier must be 43 to 128 characters from A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)',
    })
  }
  return sha256Base64Url(codeVerifier)
}

/** Describes a rejected verifier without echoing it (it is a secret). */
function describeVerifier(value: unknown): string {
  return typeof value === 'string' ? `a string of ${value.length} characters` : `a ${typeof value}`
}
