import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CryptoError } from '../errors/crypto-error.js'
import { encodeDer, encodeDerSequence, readDerChildren, readDerDocument } from './der.js'
import { describeSubjectPublicKeyInfo } from './spki.js'

/** SPKI DER and the JWK node:crypto exports for the same key (re-imported first: Node 20 JWK note). */
function keyPair(
  type: 'rsa' | 'ec' | 'ed25519',
  namedCurve?: string,
): { spki: Uint8Array; jwk: Record<string, unknown> } {
  const { privateKey } =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : type === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: namedCurve ?? 'P-256' })
        : generateKeyPairSync('ed25519')
  const reimported: KeyObject = createPublicKey(
    createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })),
  )
  return {
    spki: new Uint8Array(reimported.export({ format: 'der', type: 'spki' })),
    jwk: reimported.export({ format: 'jwk' }) as Record<string, unknown>,
  }
}

function reasonOf(spki: Uint8Array): string {
  try {
    describeSubjectPublicKeyInfo(spki)
    return 'none'
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return (error as CryptoError).reason
  }
}

describe('describeSubjectPublicKeyInfo', () => {
  it('describes an RSA key with the same n and e as node:crypto', () => {
    const { spki, jwk } = keyPair('rsa')
    expect(describeSubjectPublicKeyInfo(spki)).toEqual({
      type: 'RSA',
      jwk: { kty: 'RSA', n: jwk.n, e: jwk.e },
    })
  })

  it.each(['P-256', 'P-384', 'P-521'])(
    'describes an EC %s key with the same x and y as node:crypto',
    (curve) => {
      const { spki, jwk } = keyPair('ec', curve)
      expect(describeSubjectPublicKeyInfo(spki)).toEqual({
        type: 'EC',
        namedCurve: curve,
        jwk: { kty: 'EC', crv: curve, x: jwk.x, y: jwk.y },
      })
    },
  )

  it('refuses other key types and curves with unsupported-key', () => {
    expect(reasonOf(keyPair('ed25519').spki)).toBe('unsupported-key')
    expect(reasonOf(keyPair('ec', 'secp256k1').spki)).toBe('unsupported-key')
  })

  /** The SPKI of `spki` with its public key BIT STRING replaced by `point`. */
  function withPoint(spki: Uint8Array, point: Uint8Array): Uint8Array {
    const [algorithm] = readDerChildren(readDerDocument(spki))
    return encodeDerSequence(
      (algorithm as { bytes: Uint8Array }).bytes,
      encodeDer(0x03, new Uint8Array([0, ...point])),
    )
  }

  it('refuses a compressed point with unsupported-key', () => {
    const { spki } = keyPair('ec', 'P-256')
    const point = spki.subarray(spki.length - 65)
    const compressed = new Uint8Array([
      ((point[64] as number) & 1) === 0 ? 0x02 : 0x03,
      ...point.subarray(1, 33),
    ])
    expect(reasonOf(withPoint(spki, compressed))).toBe('unsupported-key')
  })

  it('refuses a point of the wrong length and malformed DER with invalid-key', () => {
    const { spki } = keyPair('ec', 'P-256')
    expect(reasonOf(withPoint(spki, spki.subarray(spki.length - 65, spki.length - 1)))).toBe(
      'invalid-key',
    )
    expect(
      reasonOf(withPoint(spki, new Uint8Array([0x05, ...spki.subarray(spki.length - 64)]))),
    ).toBe('invalid-key')
    expect(reasonOf(Uint8Array.of(0x30, 0x00))).toBe('invalid-key')
    expect(reasonOf(new Uint8Array([...spki, 0x00]))).toBe('invalid-key')
  })

  it('refuses an RSA key whose modulus is not a minimal positive INTEGER', () => {
    const { spki } = keyPair('rsa')
    const rsaPublicKey = encodeDerSequence(
      encodeDer(0x02, Uint8Array.of(0x80, 0x01)),
      encodeDer(0x02, Uint8Array.of(0x01, 0x00, 0x01)),
    )
    expect(reasonOf(withPoint(spki, rsaPublicKey))).toBe('invalid-key')
  })
})
