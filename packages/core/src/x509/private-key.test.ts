import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../errors/crypto-error.js'
import { encodeDer, encodeDerSequence } from './der.js'
import { encodePem } from './pem.js'
import { describePrivateKeyPem } from './private-key.js'

let rsa: KeyObject
const ec: Record<string, KeyObject> = {}

beforeAll(() => {
  rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  for (const curve of ['P-256', 'P-384', 'P-521', 'secp256k1'])
    ec[curve] = generateKeyPairSync('ec', { namedCurve: curve }).privateKey
})

const pem = (key: KeyObject, type: 'pkcs8' | 'pkcs1' | 'sec1') =>
  key.export({ format: 'pem', type }).toString()
const pkcs8Der = (key: KeyObject) => [
  ...new Uint8Array(key.export({ format: 'der', type: 'pkcs8' })),
]

function failure(text: string): CryptoError {
  try {
    describePrivateKeyPem(text)
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return error as CryptoError
  }
  throw new Error('expected a CryptoError')
}

describe('describePrivateKeyPem', () => {
  it('reads PKCS#8 RSA and EC keys as they are', () => {
    expect(describePrivateKeyPem(pem(rsa, 'pkcs8'))).toMatchObject({ type: 'RSA', format: 'pkcs8' })
    const p384 = describePrivateKeyPem(pem(ec['P-384'] as KeyObject, 'pkcs8'))
    expect(p384).toMatchObject({ type: 'EC', namedCurve: 'P-384', format: 'pkcs8' })
    expect([...p384.pkcs8]).toEqual(pkcs8Der(ec['P-384'] as KeyObject))
  })

  it('converts PKCS#1 RSA keys to the same PKCS#8 OpenSSL writes', () => {
    const described = describePrivateKeyPem(pem(rsa, 'pkcs1'))
    expect(described).toMatchObject({ type: 'RSA', format: 'pkcs1' })
    expect([...described.pkcs8]).toEqual(pkcs8Der(rsa))
  })

  it.each(['P-256', 'P-384', 'P-521'])(
    'converts SEC1 %s keys to the same PKCS#8 OpenSSL writes',
    (curve) => {
      const key = ec[curve] as KeyObject
      const described = describePrivateKeyPem(pem(key, 'sec1'))
      expect(described).toMatchObject({ type: 'EC', namedCurve: curve, format: 'sec1' })
      expect([...described.pkcs8]).toEqual(pkcs8Der(key))
      expect(
        createPrivateKey({ key: Buffer.from(described.pkcs8), format: 'der', type: 'pkcs8' })
          .asymmetricKeyType,
      ).toBe('ec')
    },
  )

  it('skips an EC PARAMETERS block before the key (openssl ecparam -genkey output)', () => {
    const text = `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${pem(ec['P-256'] as KeyObject, 'sec1')}`
    expect(describePrivateKeyPem(text).namedCurve).toBe('P-256')
  })

  it('refuses encrypted PKCS#8 and legacy encrypted PEM with invalid-key, saying why', () => {
    const encrypted = rsa
      .export({
        format: 'pem',
        type: 'pkcs8',
        cipher: 'aes-256-cbc',
        passphrase: 'secret-passphrase',
      })
      .toString()
    const legacy = rsa
      .export({
        format: 'pem',
        type: 'pkcs1',
        cipher: 'aes-256-cbc',
        passphrase: 'secret-passphrase',
      })
      .toString()
    for (const text of [encrypted, legacy]) {
      const error = failure(text)
      expect(error.reason).toBe('invalid-key')
      expect(error.message).toContain('encrypted PEM keys are not supported')
    }
  })

  it('refuses other key types and curves with unsupported-key', () => {
    const ed25519 = generateKeyPairSync('ed25519').privateKey
    expect(failure(pem(ed25519, 'pkcs8')).reason).toBe('unsupported-key')
    expect(failure(pem(ec.secp256k1 as KeyObject, 'sec1')).reason).toBe('unsupported-key')
    expect(failure(pem(ec.secp256k1 as KeyObject, 'pkcs8')).reason).toBe('unsupported-key')
  })

  it('refuses SEC1 keys with explicit curve parameters and keys without a curve', () => {
    const scalar = encodeDer(0x04, new Uint8Array(32).fill(1))
    const version = encodeDer(0x02, Uint8Array.of(1))
    const explicit = encodeDerSequence(
      version,
      scalar,
      encodeDer(0xa0, encodeDerSequence(encodeDer(0x02, Uint8Array.of(1)))),
    )
    expect(failure(encodePem(explicit, 'EC PRIVATE KEY')).reason).toBe('unsupported-key')
    expect(
      failure(encodePem(encodeDerSequence(version, scalar), 'EC PRIVATE KEY')).message,
    ).toContain('does not name its curve')
  })

  it('refuses public keys, certificates, garbage and non-strings with invalid-key, never echoing key text', () => {
    const publicPem = createPublicKey(rsa).export({ format: 'pem', type: 'spki' }).toString()
    expect(failure(publicPem).message).toContain('not a private key')
    expect(failure('hello').reason).toBe('invalid-key')
    expect(failure(42 as unknown as string).reason).toBe('invalid-key')
    // Dropping a whole 64-character line keeps the base64 valid but truncates the DER.
    const lines = pem(rsa, 'pkcs8').split('\n')
    const truncated = [...lines.slice(0, 5), ...lines.slice(6)].join('\n')
    const error = failure(truncated)
    expect(error.reason).toBe('invalid-key')
    expect(error.message).not.toMatch(/[A-Za-z0-9+/]{40}/)
  })
})
