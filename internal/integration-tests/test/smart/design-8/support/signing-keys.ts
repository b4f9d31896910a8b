/**
 * The keys the fake SMART server of the DESIGN §8 probe signs ID tokens with, and the compact
 * JWS it makes from them, the good ones and the forged ones (`alg: none`, HMAC).
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 * @see https://www.rfc-editor.org/rfc/rfc7515 (JWS)
 */
import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign as signBytes,
} from 'node:crypto'

function pemPair(type: 'rsa' | 'ec', namedCurve?: string) {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', {
          modulusLength: 2048,
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
      : generateKeyPairSync('ec', {
          namedCurve: namedCurve ?? 'P-256',
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
  // PEM first, then re-imported (Node 20 can deadlock exporting a fresh key as a JWK).
  return {
    privateKey: createPrivateKey(pair.privateKey),
    publicKey: createPublicKey(pair.publicKey),
  }
}

/** The server's RSA key, published as `kid: k1`. */
export const rsa = pemPair('rsa')
/** An RSA key the server does not publish (until a test rotates it in). */
export const otherRsa = pemPair('rsa')
/** The server's P-256 key, published as `kid: ec1` where a test advertises ES256. */
export const ec = pemPair('ec', 'P-256')
export const rsaJwk = { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig' }
export const ecJwk = { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec1', use: 'sig' }

/** The base64url of a value's JSON: one part of a compact JWS. */
export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A compact JWS of `claims` signed with `key` by the RS* or ES* `alg` of its header. */
export function jwt(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: KeyObject = rsa.privateKey,
): string {
  const input = `${b64(header)}.${b64(claims)}`
  const alg = String(header.alg)
  const hash = `sha${alg.slice(2)}`
  const signature = alg.startsWith('ES')
    ? signBytes(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
    : signBytes(hash, Buffer.from(input), key)
  return `${input}.${signature.toString('base64url')}`
}

/** A forged token: `alg: none` and an empty signature. */
export const unsignedJwt = (claims: Record<string, unknown>) =>
  `${b64({ alg: 'none' })}.${b64(claims)}.`

/** A forged token: HS256 under the server's `kid`, keyed with `secret`. */
export function hmacJwt(claims: Record<string, unknown>, secret: string): string {
  const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64(claims)}`
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
}
