import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import type { Jwk } from '@fhir-auth/core'

/** One test key in every form the backend accepts. */
export interface TestKey {
  readonly pkcs8Pem: string
  /** PKCS#1 "RSA PRIVATE KEY" or SEC1 "EC PRIVATE KEY". */
  readonly traditionalPem: string
  readonly privateJwk: Jwk
  readonly publicJwk: Jwk
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  readonly spki: Uint8Array
}

/**
 * Generates a key and derives every form from its PEM. The EC JWK is exported from a key
 * re-imported from PEM, never from the freshly generated KeyObject: on Node 20 exporting a fresh
 * EC KeyObject as a JWK can deadlock during GC.
 */
export function generateTestKey(type: 'rsa2048' | 'rsa1024' | 'p256' | 'p384' | 'p521'): TestKey {
  const generated =
    type === 'rsa2048' || type === 'rsa1024'
      ? generateKeyPairSync('rsa', { modulusLength: type === 'rsa2048' ? 2048 : 1024 })
      : generateKeyPairSync('ec', {
          namedCurve: { p256: 'P-256', p384: 'P-384', p521: 'P-521' }[type],
        })
  const pkcs8Pem = generated.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
  const traditionalPem = generated.privateKey
    .export({ format: 'pem', type: type.startsWith('rsa') ? 'pkcs1' : 'sec1' })
    .toString()
  const privateKey = createPrivateKey(pkcs8Pem)
  const publicKey = createPublicKey(privateKey)
  return {
    pkcs8Pem,
    traditionalPem,
    privateJwk: privateKey.export({ format: 'jwk' }) as Jwk,
    publicJwk: publicKey.export({ format: 'jwk' }) as Jwk,
    privateKey,
    publicKey,
    spki: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })),
  }
}
