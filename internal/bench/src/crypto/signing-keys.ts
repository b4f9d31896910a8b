import { generateKeyPairSync } from 'node:crypto'

/** A fresh private key as PKCS#8 PEM, and the algorithm SMART uses with it. */
export interface SigningKey {
  readonly algorithm: 'ES384' | 'RS384'
  readonly privateKeyPem: string
}

/**
 * A P-384 key for ES384 and an RSA 2048 key for RS384, made for this run. Exported as PEM right
 * away (never as a JWK from the fresh KeyObject: Node 20 can deadlock on that), and every
 * contender imports the PEM its own way.
 */
export function generateSigningKeys(): readonly SigningKey[] {
  const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey
  const rsaKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  return [
    {
      algorithm: 'ES384',
      privateKeyPem: ecKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
    {
      algorithm: 'RS384',
      privateKeyPem: rsaKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
  ]
}

/** A JWS signing input of a typical SMART client assertion's size (header.claims, ~450 bytes). */
export const typicalSigningInput = new TextEncoder().encode(`${'e'.repeat(110)}.${'c'.repeat(340)}`)

/** The DER bytes of a PKCS#8 PEM, for WebCrypto's `importKey('pkcs8', …)`. */
export function pkcs8Der(privateKeyPem: string): Uint8Array<ArrayBuffer> {
  const base64 = privateKeyPem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '')
  return new Uint8Array(Buffer.from(base64, 'base64'))
}
