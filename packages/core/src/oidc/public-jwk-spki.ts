import { base64UrlDecode } from '../crypto/base64.js'
import type { Jwk } from '../crypto/jwk.js'

/**
 * The DER AlgorithmIdentifier of each key type a JWK may describe, in hex. The OIDs are fixed, so
 * they are written out rather than encoded: this file needs no OID or X.509 encoder, and the ID
 * token path loads none. `rsaEncryption` 1.2.840.113549.1.1.1 with NULL parameters (RFC 8017
 * A.1); `id-ecPublicKey` 1.2.840.10045.2.1 with the named curve (RFC 5480 §2.1.1).
 */
const rsaAlgorithm = '300d06092a864886f70d0101010500'
const ecPublicKey = '06072a8648ce3d0201'

/** The curves a JWK may name: the AlgorithmIdentifier and the coordinate size in bytes. */
const curves: Readonly<Record<string, readonly [algorithm: string, bytes: number]>> = {
  // prime256v1 1.2.840.10045.3.1.7
  'P-256': [`3013${ecPublicKey}06082a8648ce3d030107`, 32],
  // secp384r1 1.3.132.0.34
  'P-384': [`3010${ecPublicKey}06052b81040022`, 48],
  // secp521r1 1.3.132.0.35
  'P-521': [`3010${ecPublicKey}06052b81040023`, 66],
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
    return spki(rsaAlgorithm, der(0x30, derInteger(n), derInteger(e)))
  }
  // Own members only: `crv: 'constructor'` must not find Object.prototype's.
  const curve = Object.hasOwn(curves, jwk.crv ?? '') ? curves[jwk.crv ?? ''] : undefined
  if (jwk.kty !== 'EC' || curve === undefined) return undefined
  const [algorithm, size] = curve
  const x = base64UrlDecode(jwk.x ?? '')
  const y = base64UrlDecode(jwk.y ?? '')
  // An uncompressed point: 0x04, x, y.
  return x?.length === size && y?.length === size ? spki(algorithm, [4, ...x, ...y]) : undefined
}

/** SEQUENCE { algorithm, BIT STRING { key } }, the BIT STRING with no unused bits (a 0x00 first). */
function spki(algorithm: string, key: readonly number[]): Uint8Array {
  const algorithmOctets = (algorithm.match(/../g) ?? []).map((hex) => parseInt(hex, 16))
  return Uint8Array.from(der(0x30, algorithmOctets, der(0x03, [0, ...key])))
}

/** A positive DER INTEGER from unsigned big-endian bytes. */
function derInteger(unsigned: Uint8Array): number[] {
  let start = 0
  while (start < unsigned.length - 1 && unsigned[start] === 0) start++
  const trimmed = [...unsigned.subarray(start)]
  // A leading 0x00 keeps a first octet with its high bit set from reading as negative.
  return der(0x02, (trimmed[0] ?? 0) >= 0x80 ? [0, ...trimmed] : trimmed)
}

/**
 * One DER element: the tag, the definite length (the short form below 128, else the long form
 * in as few octets as it takes), then the content.
 *
 * @see https://www.itu.int/rec/T-REC-X.690 X.690 §8.1.3 and §10.1
 */
function der(tag: number, ...parts: (readonly number[])[]): number[] {
  const content = parts.flat()
  const lengthOctets: number[] = []
  for (let rest = content.length; rest > 0; rest = Math.floor(rest / 256)) {
    lengthOctets.unshift(rest % 256)
  }
  const length =
    content.length < 0x80 ? [content.length] : [0x80 | lengthOctets.length, ...lengthOctets]
  return [tag, ...length, ...content]
}
