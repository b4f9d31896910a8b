/**
 * Keys for the snippet tests. EC keys leave Node only as PEM: Node 20 can deadlock when a freshly
 * generated EC KeyObject is exported as a JWK.
 */
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto'
import type { JwsSigner } from '@fhir-auth/core'

/** A P-384 key pair as PEM strings. */
export function p384PemKeyPair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-384',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
}

/** A WebCrypto P-384 key pair whose private half cannot be exported, like a key in a KMS. */
export async function nonExtractableP384(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, [
    'sign',
    'verify',
  ])
}

/** An ES384 signer on a WebCrypto private key (r‖s signatures, as JOSE wants). */
export function webCryptoSigner(privateKey: CryptoKey, kid: string): JwsSigner {
  return {
    alg: 'ES384',
    kid,
    sign: async (input) =>
      new Uint8Array(
        await crypto.subtle.sign(
          { name: 'ECDSA', hash: 'SHA-384' },
          privateKey,
          new Uint8Array(input),
        ),
      ),
  }
}

/** The parts of a compact JWS, decoded. */
export function decodeJws(jws: string): {
  header: Record<string, unknown>
  claims: Record<string, unknown>
  signingInput: string
  signature: Buffer
} {
  const [header = '', claims = '', signature = ''] = jws.split('.')
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')),
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')),
    signingInput: `${header}.${claims}`,
    signature: Buffer.from(signature, 'base64url'),
  }
}

/** Verifies an ES384 compact JWS with node:crypto (independent of the library's code). */
export function verifiesWithPem(jws: string, publicKeyPem: string): boolean {
  const { signingInput, signature } = decodeJws(jws)
  return verify(
    'sha384',
    Buffer.from(signingInput),
    { key: createPublicKey(publicKeyPem), dsaEncoding: 'ieee-p1363' },
    signature,
  )
}

/** Verifies an ES384 compact JWS with a WebCrypto public key. */
export async function verifiesWithCryptoKey(jws: string, publicKey: CryptoKey): Promise<boolean> {
  const { signingInput, signature } = decodeJws(jws)
  return crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-384' },
    publicKey,
    new Uint8Array(signature),
    new TextEncoder().encode(signingInput),
  )
}
