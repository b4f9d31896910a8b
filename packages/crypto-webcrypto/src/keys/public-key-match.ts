import { base64UrlDecode, type Jwk } from '@fhir-auth/core/essentials'

/** The public members of a JWK (RSA `n`/`e`, EC `crv`/`x`/`y`); the rest is ignored. */
export type PublicJwkMembers = {
  readonly [Member in 'kty' | 'n' | 'e' | 'crv' | 'x' | 'y']?: Jwk[Member] | undefined
}

/**
 * True when two JWKs describe the same public key. Integers are compared as numbers (leading
 * zero octets ignored), because encoders differ on whether they keep them.
 */
export function samePublicKey(left: PublicJwkMembers, right: PublicJwkMembers): boolean {
  if (left.kty !== right.kty) return false
  if (left.kty === 'RSA') return sameInteger(left.n, right.n) && sameInteger(left.e, right.e)
  if (left.kty === 'EC') {
    return left.crv === right.crv && sameInteger(left.x, right.x) && sameInteger(left.y, right.y)
  }
  return false
}

function sameInteger(left: string | undefined, right: string | undefined): boolean {
  if (left === undefined || right === undefined) return false
  const leftBytes = base64UrlDecode(left)
  const rightBytes = base64UrlDecode(right)
  if (leftBytes === undefined || rightBytes === undefined) return false
  const a = withoutLeadingZeros(leftBytes)
  const b = withoutLeadingZeros(rightBytes)
  return a.length === b.length && a.every((octet, index) => octet === b[index])
}

function withoutLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  return bytes.subarray(start)
}
