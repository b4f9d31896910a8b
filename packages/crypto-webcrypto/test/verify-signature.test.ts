import { CryptoError, type VerificationAlgorithm } from '@fhir-auth/core'
import { describe, expect, it, vi } from 'vitest'
import { createWebCryptoBackend } from '../src/index.js'
import { verificationKeyCacheSize } from '../src/verify/verify-signature.js'
import {
  clientEc256Key,
  clientEc256Spki,
  clientEc384Key,
  clientRsaKey,
} from './fixtures/webcrypto-fixtures.js'
import { ecP256, importPrivateKey, pemBody, publicJwkOf, rejectionOf } from './helpers/keys.js'

const backend = createWebCryptoBackend()
const data = new TextEncoder().encode('signed bytes')

/** The SPKI of a fixture private key, exported through WebCrypto. */
async function spkiOf(pem: string, parameters: RsaHashedImportParams | EcKeyImportParams) {
  const publicJwk = await publicJwkOf(pem, parameters)
  const key = await crypto.subtle.importKey('jwk', publicJwk as JsonWebKey, parameters, true, [
    'verify',
  ])
  return new Uint8Array(await crypto.subtle.exportKey('spki', key))
}

async function signWith(
  pem: string,
  parameters: RsaHashedImportParams | EcKeyImportParams,
  operation: AlgorithmIdentifier | RsaPssParams | EcdsaParams,
) {
  const key = await importPrivateKey(pem, parameters)
  return new Uint8Array(await crypto.subtle.sign(operation, key, data))
}

describe('verifySignature', () => {
  const rsaCases: [
    VerificationAlgorithm,
    RsaHashedImportParams,
    AlgorithmIdentifier | RsaPssParams,
  ][] = [
    ['RS256', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, { name: 'RSASSA-PKCS1-v1_5' }],
    ['RS384', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' }, { name: 'RSASSA-PKCS1-v1_5' }],
    ['RS512', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' }, { name: 'RSASSA-PKCS1-v1_5' }],
    ['PS256', { name: 'RSA-PSS', hash: 'SHA-256' }, { name: 'RSA-PSS', saltLength: 32 }],
    ['PS384', { name: 'RSA-PSS', hash: 'SHA-384' }, { name: 'RSA-PSS', saltLength: 48 }],
  ]

  it.each(rsaCases)(
    'verifies %s and rejects a changed signature',
    async (algorithm, parameters, operation) => {
      const publicKeySpki = await spkiOf(clientRsaKey, {
        name: 'RSASSA-PKCS1-v1_5',
        hash: 'SHA-256',
      })
      const signature = await signWith(clientRsaKey, parameters, operation)
      expect(await backend.verifySignature({ algorithm, publicKeySpki, data, signature })).toBe(
        true,
      )
      const tampered = signature.slice()
      tampered[10] = (tampered[10] ?? 0) ^ 1
      expect(
        await backend.verifySignature({ algorithm, publicKeySpki, data, signature: tampered }),
      ).toBe(false)
    },
  )

  it.each([
    ['ES256', clientEc256Key, { name: 'ECDSA', namedCurve: 'P-256' }, 'SHA-256'],
    ['ES384', clientEc384Key, { name: 'ECDSA', namedCurve: 'P-384' }, 'SHA-384'],
  ] as const)('verifies %s over its curve', async (algorithm, pem, parameters, hash) => {
    const publicKeySpki = await spkiOf(pem, parameters)
    const signature = await signWith(pem, parameters, { name: 'ECDSA', hash })
    expect(await backend.verifySignature({ algorithm, publicKeySpki, data, signature })).toBe(true)
    const otherData = new TextEncoder().encode('other bytes')
    expect(
      await backend.verifySignature({ algorithm, publicKeySpki, data: otherData, signature }),
    ).toBe(false)
  })

  it('verifies with an SPKI read from PEM (openssl output)', async () => {
    const signature = await signWith(clientEc256Key, ecP256, { name: 'ECDSA', hash: 'SHA-256' })
    const publicKeySpki = pemBody(clientEc256Spki, 'PUBLIC KEY')
    expect(
      await backend.verifySignature({ algorithm: 'ES256', publicKeySpki, data, signature }),
    ).toBe(true)
  })

  it('answers false, not an error, for a key of the wrong type or a signature of the wrong size', async () => {
    const rsaSpki = await spkiOf(clientRsaKey, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' })
    const ecSpki = pemBody(clientEc256Spki, 'PUBLIC KEY')
    const signature = new Uint8Array(64)
    expect(
      await backend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: rsaSpki,
        data,
        signature,
      }),
    ).toBe(false)
    expect(
      await backend.verifySignature({ algorithm: 'RS256', publicKeySpki: ecSpki, data, signature }),
    ).toBe(false)
    expect(
      await backend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: ecSpki,
        data,
        signature: new Uint8Array(3),
      }),
    ).toBe(false)
  })

  it('refuses an unknown algorithm and a malformed SPKI with CryptoError', async () => {
    const ecSpki = pemBody(clientEc256Spki, 'PUBLIC KEY')
    const unknown = await rejectionOf(
      backend.verifySignature({
        algorithm: 'HS256' as never,
        publicKeySpki: ecSpki,
        data,
        signature: data,
      }),
    )
    expect((unknown as CryptoError).reason).toBe('invalid-signature')
    const malformed = await rejectionOf(
      backend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: new Uint8Array([1, 2]),
        data,
        signature: data,
      }),
    )
    expect(malformed).toBeInstanceOf(CryptoError)
  })

  it('refuses keys WebCrypto would import but core does not support, with the reasons core gives', async () => {
    // clientEc256Spki is 0x30 0x59, the 21-byte P-256 AlgorithmIdentifier, then the BIT STRING.
    const ecSpki = pemBody(clientEc256Spki, 'PUBLIC KEY')
    const algorithm = ecSpki.subarray(2, 23)
    const point = ecSpki.subarray(ecSpki.length - 65)
    // A compressed point: the platforms decompress it, core's SPKI reader refuses it.
    const compressed = Uint8Array.of(
      ((point[64] as number) & 1) === 0 ? 2 : 3,
      ...point.subarray(1, 33),
    )
    const compressedSpki = Uint8Array.of(0x30, 21 + 36, ...algorithm, 0x03, 34, 0, ...compressed)
    // A negative RSA modulus inside an otherwise well-formed SPKI.
    const rsaSpki = await spkiOf(clientRsaKey, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' })
    const negative = rsaSpki.slice()
    // 0x30 82 01 22, AlgorithmIdentifier (15), 0x03 82 01 0f 00, 0x30 82 01 0a, 0x02 82 01 01 00.
    expect([...negative.subarray(28, 33)]).toEqual([0x02, 0x82, 0x01, 0x01, 0x00])
    // The sign octet 0x00 becomes 0x80: the modulus reads as negative.
    negative[32] = 0x80
    const reasons: string[] = []
    for (const [algorithm, publicKeySpki] of [
      ['ES256', compressedSpki],
      ['RS256', negative],
    ] as const) {
      const error = await rejectionOf(
        backend.verifySignature({ algorithm, publicKeySpki, data, signature: data }),
      )
      expect(error).toBeInstanceOf(CryptoError)
      reasons.push((error as CryptoError).reason)
    }
    expect(reasons).toEqual(['unsupported-key', 'invalid-key'])
  })

  it('refuses a check without byte arrays', async () => {
    for (const check of [
      undefined,
      { algorithm: 'ES256', publicKeySpki: 'x', data, signature: data },
    ]) {
      const error = await rejectionOf(backend.verifySignature(check as never))
      expect((error as CryptoError).reason).toBe('invalid-signature')
    }
  })

  it('imports each public key once per algorithm', async () => {
    const importKey = vi.fn(globalThis.crypto.subtle.importKey.bind(globalThis.crypto.subtle))
    const subtle = Object.create(globalThis.crypto.subtle, {
      importKey: { value: importKey },
      verify: { value: globalThis.crypto.subtle.verify.bind(globalThis.crypto.subtle) },
    }) as SubtleCrypto
    const cached = createWebCryptoBackend({ subtle })
    const publicKeySpki = pemBody(clientEc256Spki, 'PUBLIC KEY')
    const signature = await signWith(clientEc256Key, ecP256, { name: 'ECDSA', hash: 'SHA-256' })
    for (let round = 0; round < 3; round++) {
      expect(
        await cached.verifySignature({ algorithm: 'ES256', publicKeySpki, data, signature }),
      ).toBe(true)
    }
    expect(importKey).toHaveBeenCalledOnce()
  })
})

// The LRU map itself (core's BoundedCache) is tested in packages/core/test/bounded-cache.test.ts.
describe('verification key cache', () => {
  it('keeps the verification key cache bounded', () => {
    expect(verificationKeyCacheSize).toBeGreaterThan(0)
    expect(verificationKeyCacheSize).toBeLessThanOrEqual(256)
  })
})
