import { CryptoError, type Jwk, type KeyDescription } from '@fhir-auth/core/essentials'

/** A private JWK reduced to what WebCrypto needs, with what decides its algorithms. */
export interface PrivateJwk {
  readonly description: KeyDescription
  /** Key members only: `alg`, `use`, `key_ops` and `ext` are dropped (see below). */
  readonly keyData: JsonWebKey
}

const rsaMembers = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const
const ecMembers = ['crv', 'x', 'y', 'd'] as const

/**
 * Reads a private JWK (RFC 7517) for signing.
 *
 * Only the key members are kept. WebCrypto rejects a JWK whose `alg` disagrees with the import
 * hash and one whose `key_ops`/`use` lack signing; the algorithm is chosen by the profile rules
 * instead, so those hints must not make the import fail.
 *
 * @throws CryptoError `invalid-key` for a public JWK (no `d`) or members that are not strings;
 *   `unsupported-key` for a key type other than RSA or EC.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-6
 */
export function readPrivateJwk(jwk: Jwk): PrivateJwk {
  if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') {
    throw new CryptoError(
      'unsupported-key',
      `a JWK of kty ${JSON.stringify(String(jwk.kty))} cannot sign JWTs; use an RSA or EC key`,
    )
  }
  if (jwk.d === undefined) {
    throw new CryptoError('invalid-key', `the ${jwk.kty} JWK is a public key: it has no "d" member`)
  }
  const members = jwk.kty === 'RSA' ? rsaMembers : ecMembers
  const keyData: Record<string, string> = { kty: jwk.kty }
  for (const member of members) {
    const value = jwk[member]
    if (value === undefined) continue
    if (typeof value !== 'string') {
      throw new CryptoError('invalid-key', `the JWK member "${member}" is not a string`)
    }
    keyData[member] = value
  }
  if (jwk.kty === 'EC' && keyData.crv === undefined) {
    throw new CryptoError('invalid-key', 'the EC JWK has no "crv" member')
  }
  const description: KeyDescription =
    jwk.kty === 'RSA' ? { type: 'RSA' } : { type: 'EC', namedCurve: keyData.crv }
  return { description, keyData }
}
