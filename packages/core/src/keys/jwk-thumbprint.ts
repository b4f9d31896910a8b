import { base64UrlEncode } from '../crypto/base64.js'
import type { Jwk } from '../crypto/jwk.js'
import { sha256Sync } from './sha256-sync.js'

/**
 * The RFC 7638 thumbprint of a public RSA or EC JWK: base64url(SHA-256) of the JSON object of
 * its required members only, in lexicographic order, with no whitespace.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3 RFC 7638 §3
 * @internal
 */
export function jwkThumbprint(jwk: Jwk): string {
  const members =
    jwk.kty === 'RSA'
      ? { e: jwk.e, kty: jwk.kty, n: jwk.n }
      : { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
  return base64UrlEncode(sha256Sync(new TextEncoder().encode(JSON.stringify(members))))
}
