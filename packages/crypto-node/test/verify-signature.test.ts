import { constants, generateKeyPairSync, sign } from 'node:crypto'
import { CryptoError, type SignatureCheck, type VerificationAlgorithm } from '@fhir-auth/core'
import { CompactSign, importJWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { createNodeCryptoBackend } from '../src/index.js'
import { expectCryptoError, joseJwk, withFlippedByte } from './support/assertions.js'
import { generateTestKey, type TestKey } from './support/keys.js'

const backend = createNodeCryptoBackend()
const data = new TextEncoder().encode('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0')
let rsa: TestKey
let otherRsa: TestKey
let p256: TestKey
let p384: TestKey
let p521: TestKey

beforeAll(() => {
  rsa = generateTestKey('rsa2048')
  otherRsa = generateTestKey('rsa2048')
  p256 = generateTestKey('p256')
  p384 = generateTestKey('p384')
  p521 = generateTestKey('p521')
})

/** A JWS signature made by jose (an independent implementation), with the input it covers. */
async function joseSignature(
  algorithm: VerificationAlgorithm,
  key: TestKey,
): Promise<{ signature: Uint8Array; signingInput: Uint8Array }> {
  const privateKey = await importJWK(joseJwk(key.privateJwk), algorithm)
  const jws = await new CompactSign(new TextEncoder().encode('payload'))
    .setProtectedHeader({ alg: algorithm })
    .sign(privateKey)
  const [header, payload, signature] = jws.split('.') as [string, string, string]
  return {
    signature: new Uint8Array(Buffer.from(signature, 'base64url')),
    signingInput: new TextEncoder().encode(`${header}.${payload}`),
  }
}

describe('verifySignature', () => {
  const cases: [VerificationAlgorithm, () => TestKey][] = [
    ['RS256', () => rsa],
    ['RS384', () => rsa],
    ['RS512', () => rsa],
    ['PS256', () => rsa],
    ['PS384', () => rsa],
    ['PS512', () => rsa],
    ['ES256', () => p256],
    ['ES384', () => p384],
    ['ES512', () => p521],
  ]
  for (const [algorithm, key] of cases) {
    it(`verifies ${algorithm} signatures made by jose, and rejects tampered ones`, async () => {
      const { signature, signingInput } = await joseSignature(algorithm, key())
      const check: SignatureCheck = {
        algorithm,
        publicKeySpki: key().spki,
        data: signingInput,
        signature,
      }
      expect(await backend.verifySignature(check)).toBe(true)
      const tampered = withFlippedByte(check.data, 0)
      expect(await backend.verifySignature({ ...check, data: tampered })).toBe(false)
      const flipped = withFlippedByte(signature, -1)
      expect(await backend.verifySignature({ ...check, signature: flipped })).toBe(false)
    })
  }

  it('uses salt length = hash length for PS*', async () => {
    const saltedWrongly = sign('sha256', data, {
      key: rsa.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 20,
    })
    const saltedRightly = sign('sha256', data, {
      key: rsa.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    })
    const check = { algorithm: 'PS256', publicKeySpki: rsa.spki, data } as const
    expect(await backend.verifySignature({ ...check, signature: saltedRightly })).toBe(true)
    expect(await backend.verifySignature({ ...check, signature: saltedWrongly })).toBe(false)
  })

  it('answers false for another key, another scheme or another key type', async () => {
    const rs256 = sign('sha256', data, rsa.privateKey)
    const es256 = sign('sha256', data, { key: p256.privateKey, dsaEncoding: 'ieee-p1363' })
    expect(
      await backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: rsa.spki,
        data,
        signature: rs256,
      }),
    ).toBe(true)
    expect(
      await backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: otherRsa.spki,
        data,
        signature: rs256,
      }),
    ).toBe(false)
    expect(
      await backend.verifySignature({
        algorithm: 'PS256',
        publicKeySpki: rsa.spki,
        data,
        signature: rs256,
      }),
    ).toBe(false)
    expect(
      await backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: p256.spki,
        data,
        signature: rs256,
      }),
    ).toBe(false)
    expect(
      await backend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: rsa.spki,
        data,
        signature: es256,
      }),
    ).toBe(false)
    expect(
      await backend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: p384.spki,
        data,
        signature: es256,
      }),
    ).toBe(false)
  })

  it('expects ECDSA as JOSE r‖s, not DER', async () => {
    const der = sign('sha256', data, { key: p256.privateKey, dsaEncoding: 'der' })
    expect(
      await backend.verifySignature({
        algorithm: 'ES256',
        publicKeySpki: p256.spki,
        data,
        signature: der,
      }),
    ).toBe(false)
  })

  it('re-pads r‖s to the key’s curve (X.509 pairs any hash with any curve)', async () => {
    // ecdsa-with-SHA256 by a P-384 CA: node checks it once the halves are 48 bytes each.
    const joseP384 = sign('sha256', data, { key: p384.privateKey, dsaEncoding: 'ieee-p1363' })
    expect(joseP384.length).toBe(96)
    const check = { algorithm: 'ES256', publicKeySpki: p384.spki, data } as const
    expect(await backend.verifySignature({ ...check, signature: joseP384 })).toBe(true)
    const widened = new Uint8Array(98)
    widened.set(joseP384.subarray(0, 48), 1)
    widened.set(joseP384.subarray(48), 50)
    expect(await backend.verifySignature({ ...check, signature: widened })).toBe(true)
    expect(await backend.verifySignature({ ...check, signature: joseP384.subarray(1) })).toBe(false)
    expect(await backend.verifySignature({ ...check, signature: new Uint8Array(0) })).toBe(false)
    expect(
      await backend.verifySignature({ ...check, signature: new Uint8Array(200).fill(1) }),
    ).toBe(false)
  })

  it('answers false for RSA signatures of the wrong length', async () => {
    const short = sign('sha256', data, rsa.privateKey).subarray(1)
    expect(
      await backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: rsa.spki,
        data,
        signature: short,
      }),
    ).toBe(false)
  })

  it('reuses one public key for repeated checks and still verifies', async () => {
    const signature = sign('sha384', data, rsa.privateKey)
    for (let round = 0; round < 3; round++) {
      expect(
        await backend.verifySignature({
          algorithm: 'RS384',
          publicKeySpki: rsa.spki,
          data,
          signature,
        }),
      ).toBe(true)
    }
  })

  it('makes malformed input a typed error', async () => {
    const signature = new Uint8Array(256)
    await expectCryptoError(
      backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: rsa.spki.subarray(0, 40),
        data,
        signature,
      }),
      'invalid-key',
    )
    await expectCryptoError(
      backend.verifySignature({
        algorithm: 'HS256' as VerificationAlgorithm,
        publicKeySpki: rsa.spki,
        data,
        signature,
      }),
      'algorithm-mismatch',
    )
    await expectCryptoError(
      backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: 'MIIB' as unknown as Uint8Array,
        data,
        signature,
      }),
      'invalid-key',
    )
    await expectCryptoError(
      backend.verifySignature({
        algorithm: 'RS256',
        publicKeySpki: rsa.spki,
        data: 'x' as unknown as Uint8Array,
        signature,
      }),
      'invalid-signature',
    )
    const missing = await backend
      .verifySignature(undefined as unknown as SignatureCheck)
      .catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(CryptoError)
  })

  it('verifies with an RSASSA-PSS-only key for PS* and answers false for RS*', async () => {
    const pss = generateKeyPairSync('rsa-pss', { modulusLength: 2048 })
    const spki = new Uint8Array(pss.publicKey.export({ format: 'der', type: 'spki' }))
    const signature = sign('sha256', data, {
      key: pss.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    })
    expect(
      await backend.verifySignature({ algorithm: 'PS256', publicKeySpki: spki, data, signature }),
    ).toBe(true)
    expect(
      await backend.verifySignature({ algorithm: 'RS256', publicKeySpki: spki, data, signature }),
    ).toBe(false)
  })
})
