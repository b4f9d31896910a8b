import { createHash, timingSafeEqual } from 'node:crypto'

/** An S256 `code_challenge`: BASE64URL(SHA-256(verifier)) is always 43 characters. */
const s256ChallengePattern = /^[A-Za-z0-9_-]{43}$/

/** RFC 7636 §4.1: 43–128 characters of `[A-Z] [a-z] [0-9] - . _ ~`. */
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/

/**
 * Whether `challenge` can be an S256 code challenge (43 base64url characters).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2
 */
export function isS256CodeChallenge(challenge: string): boolean {
  return s256ChallengePattern.test(challenge)
}

/**
 * Whether `verifier` is well-formed and BASE64URL(SHA-256(verifier)) equals `challenge`
 * (compared in constant time). Computed with node:crypto, independently of the library.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6
 */
export function verifiesS256Challenge(verifier: string, challenge: string): boolean {
  if (!verifierPattern.test(verifier)) return false
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'))
  const expected = Buffer.from(challenge)
  return computed.length === expected.length && timingSafeEqual(computed, expected)
}
