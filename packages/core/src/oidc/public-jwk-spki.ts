import { base64UrlDecode } from '../crypto/base64.js'
import type { Jwk } from '../crypto/jwk.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../x509/der.js'
import { encodeDerOid } from '../x509/object-identifier.js'
import { ecPublicKeyOid, rsaEncryptionOid } from '../x509/spki.js'

/** The named curves a JWK may name, with their OIDs and coordinate sizes in bytes. */
const curves: Readonly<Record<string, { readonly oid: string; readonly bytes: number }>> = {
  'P-256': { oid: '1.2.840.10045.3.1.7', bytes: 32 },
  'P-384': { oid: '1.3.132.0.34', bytes: 48 },
  'P-521': { oid: '1.3.132.0.35', bytes: 66 },
}

/**
 * The DER SubjectPublicKeyInfo of a public RSA or EC JWK, the form every crypto backend
 * verifies with, so ID token signatures go through the configured backend like every other
 * check. `undefined` for anything else (symmetric keys, OKP, broken members).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-6 RFC 7518 §6 (JWK parameters)
 * @see https://www.rfc-editor.org/rfc/rfc5480#section-2 RFC 5480 §2 (EC SPKI)
 * @see https://www.rfc-editor.org/rfc/rfc8017#appendix-A.1.1 RFC 8017 A.1.1 (RSAPublicKey)
 */
export function publicJwkToSpki(jwk: Jwk): Uint8Array | undefined {
  if (jwk.kty === 'RSA') {
    const n = base64UrlDecode(jwk.n ?? '')
    const e = base64UrlDecode(jwk.e ?? '')
    if (n === undefined || e === undefined || n.length < 256 || e.length === 0) return undefined
    const rsaPublicKey = encodeDerSequence(derInteger(n), derInteger(e))
    return spki(
      encodeDerSequence(encodeDerOid(rsaEncryptionOid), encodeDer(0x05, new Uint8Array())),
      rsaPublicKey,
    )
  }
  if (jwk.kty === 'EC') {
    const curve = curves[jwk.crv ?? '']
    const x = base64UrlDecode(jwk.x ?? '')
    const y = base64UrlDecode(jwk.y ?? '')
    if (curve === undefined || x?.length !== curve.bytes || y?.length !== curve.bytes)
      return undefined
    const algorithm = encodeDerSequence(encodeDerOid(ecPublicKeyOid), encodeDerOid(curve.oid))
    return spki(algorithm, concatBytes(Uint8Array.of(0x04), x, y))
  }
  return undefined
}

function spki(algorithm: Uint8Array, key: Uint8Array): Uint8Array {
  // A BIT STRING with no unused bits: a leading 0x00 octet.
  return encodeDerSequence(algorithm, encodeDer(0x03, concatBytes(Uint8Array.of(0), key)))
}

/** A positive DER INTEGER from unsigned big-endian bytes. */
function derInteger(unsigned: Uint8Array): Uint8Array {
  let start = 0
  while (start < unsigned.length - 1 && unsigned[start] === 0) start++
  const trimmed = unsigned.subarray(start)
  const needsPad = ((trimmed[0] ?? 0) & 0x80) !== 0
  return encodeDer(0x02, needsPad ? concatBytes(Uint8Array.of(0), trimmed) : trimmed)
}
