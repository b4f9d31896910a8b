/**
 * Node only: cross-checks `describePrivateKeyPem` against keys OpenSSL (node:crypto) generates
 * and exports on the spot, in the forms neither WebCrypto nor the committed test PKI has: P-521
 * SEC1, real secp256k1 and Ed25519 keys, and encrypted PKCS#8 and legacy encrypted PEM. The
 * portable rules run everywhere in `private-key.test.ts`.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { describePrivateKeyPem } from '../../src/x509/private-key.js'

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

describe('describePrivateKeyPem against freshly generated OpenSSL keys', () => {
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

  it('refuses real Ed25519 and secp256k1 keys with unsupported-key', () => {
    const ed25519 = generateKeyPairSync('ed25519').privateKey
    expect(failure(pem(ed25519, 'pkcs8')).reason).toBe('unsupported-key')
    expect(failure(pem(ec.secp256k1 as KeyObject, 'sec1')).reason).toBe('unsupported-key')
    expect(failure(pem(ec.secp256k1 as KeyObject, 'pkcs8')).reason).toBe('unsupported-key')
  })
})
