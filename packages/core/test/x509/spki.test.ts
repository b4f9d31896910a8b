import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import {
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { describeSubjectPublicKeyInfo } from '../../src/x509/spki.js'
import { generateTestKeyPair, type TestCurve } from './fixtures/webcrypto-keys.js'

/** SPKI DER and the JWK WebCrypto exports for the same freshly generated key. */
async function keyPair(
  type: 'rsa' | 'ec',
  namedCurve: TestCurve = 'P-256',
): Promise<{ spki: Uint8Array; jwk: JsonWebKey }> {
  const pair = await generateTestKeyPair(type === 'rsa' ? 'RS256' : 'ES256', namedCurve)
  return { spki: pair.spki, jwk: pair.publicJwk }
}

/**
 * An SPKI for a key WebCrypto cannot make everywhere: Ed25519 (RFC 8410, no parameters) or an EC
 * key on secp256k1. The parser refuses both by their OIDs, so the key bits are placeholders.
 */
function foreignSpki(kind: 'ed25519' | 'secp256k1'): Uint8Array {
  const algorithm =
    kind === 'ed25519'
      ? encodeDerSequence(encodeDerOid('1.3.101.112'))
      : encodeDerSequence(encodeDerOid('1.2.840.10045.2.1'), encodeDerOid('1.3.132.0.10'))
  const key =
    kind === 'ed25519' ? new Uint8Array(33) : Uint8Array.of(0, 4, ...new Uint8Array(64).fill(1))
  return encodeDerSequence(algorithm, encodeDer(0x03, key))
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
  it('describes an RSA key with the same n and e as WebCrypto', async () => {
    const { spki, jwk } = await keyPair('rsa')
    expect(describeSubjectPublicKeyInfo(spki)).toEqual({
      type: 'RSA',
      jwk: { kty: 'RSA', n: jwk.n, e: jwk.e },
    })
  })

  it.each(['P-256', 'P-384', 'P-521'] as const)(
    'describes an EC %s key with the same x and y as WebCrypto',
    async (curve) => {
      const { spki, jwk } = await keyPair('ec', curve)
      expect(describeSubjectPublicKeyInfo(spki)).toEqual({
        type: 'EC',
        namedCurve: curve,
        jwk: { kty: 'EC', crv: curve, x: jwk.x, y: jwk.y },
      })
    },
  )

  it('refuses other key types and curves with unsupported-key', () => {
    expect(reasonOf(foreignSpki('ed25519'))).toBe('unsupported-key')
    expect(reasonOf(foreignSpki('secp256k1'))).toBe('unsupported-key')
  })

  /** The SPKI of `spki` with its public key BIT STRING replaced by `point`. */
  function withPoint(spki: Uint8Array, point: Uint8Array): Uint8Array {
    const [algorithm] = readDerChildren(readDerDocument(spki))
    return encodeDerSequence(
      (algorithm as { bytes: Uint8Array }).bytes,
      encodeDer(0x03, new Uint8Array([0, ...point])),
    )
  }

  it('refuses a compressed point with unsupported-key', async () => {
    const { spki } = await keyPair('ec', 'P-256')
    const point = spki.subarray(spki.length - 65)
    const compressed = new Uint8Array([
      ((point[64] as number) & 1) === 0 ? 0x02 : 0x03,
      ...point.subarray(1, 33),
    ])
    expect(reasonOf(withPoint(spki, compressed))).toBe('unsupported-key')
  })

  it('refuses a point of the wrong length and malformed DER with invalid-key', async () => {
    const { spki } = await keyPair('ec', 'P-256')
    expect(reasonOf(withPoint(spki, spki.subarray(spki.length - 65, spki.length - 1)))).toBe(
      'invalid-key',
    )
    expect(
      reasonOf(withPoint(spki, new Uint8Array([0x05, ...spki.subarray(spki.length - 64)]))),
    ).toBe('invalid-key')
    expect(reasonOf(Uint8Array.of(0x30, 0x00))).toBe('invalid-key')
    expect(reasonOf(new Uint8Array([...spki, 0x00]))).toBe('invalid-key')
  })

  it('refuses an RSA key whose modulus is not a minimal positive INTEGER', async () => {
    const { spki } = await keyPair('rsa')
    const rsaPublicKey = encodeDerSequence(
      encodeDer(0x02, Uint8Array.of(0x80, 0x01)),
      encodeDer(0x02, Uint8Array.of(0x01, 0x00, 0x01)),
    )
    expect(reasonOf(withPoint(spki, rsaPublicKey))).toBe('invalid-key')
  })
})
