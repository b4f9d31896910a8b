import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { encodePem } from '../../src/x509/pem.js'
import { describePrivateKeyPem } from '../../src/x509/private-key.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'
import { bufferOf, generateTestKeyPair, pemBytes } from './fixtures/webcrypto-keys.js'

// The test PKI's keys were written by OpenSSL in every form: PKCS#8 and PKCS#1 (RSA) or SEC1 (EC).
const testPki = openTestPkiFiles()
const pkcs8Pem = (leaf: string) => testPki.text(`leaves/${leaf}/key.pkcs8.pem`)
const rsaPkcs1Pem = testPki.text('leaves/rsa-client/key.pkcs1.pem')
const sec1Pem = (leaf: string) => testPki.text(`leaves/${leaf}/key.sec1.pem`)
const ecLeaves = { 'P-256': 'ec-p256-client', 'P-384': 'ec-p384-client' } as const

const ecPublicKeyOid = '1.2.840.10045.2.1'
const secp256k1Oid = '1.3.132.0.10'
const privateScalar = encodeDer(0x04, new Uint8Array(32).fill(1))

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
    expect(describePrivateKeyPem(pkcs8Pem('rsa-client'))).toMatchObject({
      type: 'RSA',
      format: 'pkcs8',
    })
    const p384 = describePrivateKeyPem(pkcs8Pem('ec-p384-client'))
    expect(p384).toMatchObject({ type: 'EC', namedCurve: 'P-384', format: 'pkcs8' })
    expect([...p384.pkcs8]).toEqual([...pemBytes(pkcs8Pem('ec-p384-client'))])
  })

  it('converts PKCS#1 RSA keys to the same PKCS#8 OpenSSL wrote', async () => {
    const described = describePrivateKeyPem(rsaPkcs1Pem)
    expect(described).toMatchObject({ type: 'RSA', format: 'pkcs1' })
    expect([...described.pkcs8]).toEqual([...pemBytes(pkcs8Pem('rsa-client'))])
    await expect(
      crypto.subtle.importKey(
        'pkcs8',
        bufferOf(described.pkcs8),
        { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        false,
        ['sign'],
      ),
    ).resolves.toBeDefined()
  })

  it.each(['P-256', 'P-384'] as const)(
    'converts SEC1 %s keys to the same PKCS#8 OpenSSL wrote, which WebCrypto imports',
    async (curve) => {
      const leaf = ecLeaves[curve]
      const described = describePrivateKeyPem(sec1Pem(leaf))
      expect(described).toMatchObject({ type: 'EC', namedCurve: curve, format: 'sec1' })
      expect([...described.pkcs8]).toEqual([...pemBytes(pkcs8Pem(leaf))])
      const key = await crypto.subtle.importKey(
        'pkcs8',
        bufferOf(described.pkcs8),
        { name: 'ECDSA', namedCurve: curve },
        false,
        ['sign'],
      )
      expect(key.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: curve })
    },
  )

  it('skips an EC PARAMETERS block before the key (openssl ecparam -genkey output)', () => {
    const text = `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${sec1Pem('ec-p256-client')}`
    expect(describePrivateKeyPem(text).namedCurve).toBe('P-256')
  })

  it('refuses encrypted PKCS#8 with invalid-key, saying why', () => {
    const error = failure(testPki.text('leaves/ec-p256-client/key.pkcs8.encrypted.pem'))
    expect(error.reason).toBe('invalid-key')
    expect(error.message).toContain('encrypted PEM keys are not supported')
  })

  it('refuses other key types and curves with unsupported-key', () => {
    // RFC 8410 §10.3: an Ed25519 private key in PKCS#8.
    const ed25519 =
      '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----'
    expect(failure(ed25519).reason).toBe('unsupported-key')
    // secp256k1, which WebCrypto cannot generate: built from its ASN.1 (RFC 5915, RFC 5208).
    const version = encodeDer(0x02, Uint8Array.of(1))
    const sec1 = encodeDerSequence(
      version,
      privateScalar,
      encodeDer(0xa0, encodeDerOid(secp256k1Oid)),
    )
    expect(failure(encodePem(sec1, 'EC PRIVATE KEY')).reason).toBe('unsupported-key')
    const pkcs8 = encodeDerSequence(
      encodeDer(0x02, Uint8Array.of(0)),
      encodeDerSequence(encodeDerOid(ecPublicKeyOid), encodeDerOid(secp256k1Oid)),
      encodeDer(0x04, encodeDerSequence(version, privateScalar)),
    )
    expect(failure(encodePem(pkcs8, 'PRIVATE KEY')).reason).toBe('unsupported-key')
  })

  it('refuses SEC1 keys with explicit curve parameters and keys without a curve', () => {
    const version = encodeDer(0x02, Uint8Array.of(1))
    const explicit = encodeDerSequence(
      version,
      privateScalar,
      encodeDer(0xa0, encodeDerSequence(encodeDer(0x02, Uint8Array.of(1)))),
    )
    expect(failure(encodePem(explicit, 'EC PRIVATE KEY')).reason).toBe('unsupported-key')
    expect(
      failure(encodePem(encodeDerSequence(version, privateScalar), 'EC PRIVATE KEY')).message,
    ).toContain('does not name its curve')
  })

  it('refuses public keys, certificates, garbage and non-strings with invalid-key, never echoing key text', async () => {
    const publicPem = encodePem((await generateTestKeyPair('RS256')).spki, 'PUBLIC KEY')
    expect(failure(publicPem).message).toContain('not a private key')
    expect(failure(testPki.text('leaves/rsa-client/certificate.pem')).reason).toBe('invalid-key')
    expect(failure('hello').reason).toBe('invalid-key')
    expect(failure(42 as unknown as string).reason).toBe('invalid-key')
    // Dropping a whole 64-character line keeps the base64 valid but truncates the DER.
    const lines = pkcs8Pem('rsa-client').split('\n')
    const truncated = [...lines.slice(0, 5), ...lines.slice(6)].join('\n')
    const error = failure(truncated)
    expect(error.reason).toBe('invalid-key')
    expect(error.message).not.toMatch(/[A-Za-z0-9+/]{40}/)
  })
})
