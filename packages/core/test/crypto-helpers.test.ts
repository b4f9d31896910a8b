import * as jose from 'jose'
import { describe, expect, it } from 'vitest'
import {
  base64UrlDecode,
  base64UrlEncode,
  ConfigurationError,
  CryptoError,
  computeCodeChallenge,
  generateCodeVerifier,
  generateJti,
  generateState,
  isJwsSigner,
  isValidCodeVerifier,
  type JwsSigner,
} from '../src/index.js'
import {
  compatibleAlgorithms,
  decodeCompactJws,
  ecdsaDerToJose,
  normalizeEcdsaSignature,
  selectSigningAlgorithm,
  signCompactJws,
} from '../src/jws.js'
import { ecdsaJoseToDer, generateTestKeyPair, signWithKey } from './x509/fixtures/webcrypto-keys.js'

describe('state, jti and PKCE', () => {
  it('generates fresh 256-bit state and jti values', () => {
    const values = new Set(Array.from({ length: 200 }, () => generateState()))
    expect(values.size).toBe(200)
    for (const value of values) expect(base64UrlDecode(value)?.length).toBe(32)
    expect(base64UrlDecode(generateJti())?.length).toBe(32)
    expect(generateJti()).not.toBe(generateJti())
  })

  it('generates 43-character unreserved verifiers', () => {
    for (let index = 0; index < 50; index++) {
      const verifier = generateCodeVerifier()
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(isValidCodeVerifier(verifier)).toBe(true)
    }
  })

  it('computes the RFC 7636 appendix B example challenge', async () => {
    expect(await computeCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    )
  })

  it('matches a WebCrypto SHA-256 of random verifiers', async () => {
    const verifier = generateCodeVerifier()
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
    expect(await computeCodeChallenge(verifier)).toBe(base64UrlEncode(new Uint8Array(digest)))
  })

  it.each(['short', 'x'.repeat(129), `${'a'.repeat(43)} `, `${'a'.repeat(42)}+`, 42])(
    'refuses verifier %j with a ConfigurationError that does not echo it',
    async (verifier) => {
      const error = await computeCodeChallenge(verifier as string).catch(
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('codeVerifier')
      if (typeof verifier === 'string' && verifier.length > 5)
        expect((error as Error).message).not.toContain(verifier)
    },
  )
})

describe('signing algorithm selection', () => {
  const rsa = { type: 'RSA' } as const
  const p256 = { type: 'EC', namedCurve: 'P-256' } as const
  const p384 = { type: 'EC', namedCurve: 'P-384' } as const
  const p521 = { type: 'EC', namedCurve: 'P-521' } as const

  it.each([
    ['smart', rsa, 'RS384'],
    ['smart', p384, 'ES384'],
    ['udap', rsa, 'RS256'],
    ['udap', p256, 'ES256'],
    ['udap', p384, 'ES384'],
  ] as const)('%s with %j chooses %s', (profile, key, expected) => {
    expect(selectSigningAlgorithm({ profile, key })).toBe(expected)
  })

  it('intersects with the server list (UDAP RSA key, server only RS384)', () => {
    expect(
      selectSigningAlgorithm({
        profile: 'udap',
        key: rsa,
        advertisedAlgorithms: ['RS384', 'ES256'],
      }),
    ).toBe('RS384')
  })

  it.each([
    ['smart', p256],
    ['smart', p521],
    ['udap', p521],
  ] as const)('%s refuses %j as unsupported-key', (profile, key) => {
    expect(() => selectSigningAlgorithm({ profile, key })).toThrow(
      expect.objectContaining({ name: 'CryptoError', reason: 'unsupported-key' }),
    )
  })

  it('says which key cannot sign and what would', () => {
    expect(() => selectSigningAlgorithm({ profile: 'smart', key: p256 })).toThrow(
      'an EC P-256 key cannot sign SMART JWTs; use RSA or EC P-384',
    )
  })

  it('names the algorithms that would work when an explicit one does not fit the key', () => {
    expect(() =>
      selectSigningAlgorithm({ profile: 'smart', key: rsa, algorithm: 'ES384' }),
    ).toThrow(
      expect.objectContaining({
        name: 'ConfigurationError',
        invalidAttribute: 'jwtAlgorithm',
        validValues: ['RS384'],
      }),
    )
    expect(() =>
      selectSigningAlgorithm({ profile: 'smart', key: rsa, algorithm: 'RS256' }),
    ).toThrow(ConfigurationError)
    expect(selectSigningAlgorithm({ profile: 'udap', key: rsa, algorithm: 'RS384' })).toBe('RS384')
  })

  it('refuses an explicit algorithm the server does not advertise', () => {
    expect(() =>
      selectSigningAlgorithm({
        profile: 'udap',
        key: rsa,
        algorithm: 'RS384',
        advertisedAlgorithms: ['RS256'],
      }),
    ).toThrow(ConfigurationError)
  })

  it('reports no common algorithm with the server', () => {
    expect(() =>
      selectSigningAlgorithm({ profile: 'udap', key: p256, advertisedAlgorithms: ['RS256'] }),
    ).toThrow(expect.objectContaining({ name: 'CryptoError', reason: 'no-common-algorithm' }))
  })

  it('lists compatible algorithms per profile', () => {
    expect(compatibleAlgorithms('udap', rsa)).toEqual(['RS256', 'RS384'])
    expect(compatibleAlgorithms('smart', p256)).toEqual([])
  })
})

/**
 * A WebCrypto signer with a fresh key. `signatureFormat: 'der'` makes ECDSA signatures DER, as
 * HSMs and KMS services return them.
 */
async function webCryptoSigner(
  alg: 'RS384' | 'ES384' | 'ES256',
  signatureFormat: 'jose' | 'der' = 'jose',
): Promise<{ signer: JwsSigner; publicKey: CryptoKey }> {
  const pair = await generateTestKeyPair(alg, alg === 'ES384' ? 'P-384' : 'P-256')
  const signer: JwsSigner = {
    alg,
    kid: 'k1',
    sign: async (input) => {
      const signature = await signWithKey(pair.privateKey, alg, input)
      return signatureFormat === 'der' ? ecdsaJoseToDer(signature) : signature
    },
  }
  return { signer, publicKey: pair.publicKey }
}

describe('signCompactJws', () => {
  it.each(['RS384', 'ES384', 'ES256'] as const)(
    'produces a %s JWS that jose verifies',
    async (alg) => {
      const { signer, publicKey } = await webCryptoSigner(alg)
      const jws = await signCompactJws(
        { typ: 'JWT', kid: 'k1', alg: 'none' },
        { iss: 'a', n: 1 },
        signer,
      )
      const verified = await jose.compactVerify(jws, publicKey)
      expect(verified.protectedHeader).toEqual({ typ: 'JWT', kid: 'k1', alg })
      expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual({ iss: 'a', n: 1 })
    },
  )

  it('converts a DER ECDSA signature from an HSM-style signer to r‖s', async () => {
    const { signer, publicKey } = await webCryptoSigner('ES384', 'der')
    const jws = await signCompactJws({}, { x: 1 }, signer)
    expect(base64UrlDecode(jws.split('.')[2] as string)?.length).toBe(96)
    await expect(jose.compactVerify(jws, publicKey)).resolves.toBeDefined()
  })

  it('turns a failing signer into a CryptoError without its message', async () => {
    const signer: JwsSigner = {
      alg: 'RS384',
      sign: async () => {
        throw new Error('key material AAAA-SECRET')
      },
    }
    const error = await signCompactJws({}, {}, signer).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(CryptoError)
    expect(String((error as Error).message)).not.toContain('SECRET')
    expect((error as Error).cause).toBeUndefined()
  })

  it.each([new Uint8Array(0), 'sig', new Uint8Array(10)])(
    'rejects a signer returning %j',
    async (value) => {
      const signer = { alg: 'ES256', sign: async () => value } as unknown as JwsSigner
      await expect(signCompactJws({}, {}, signer)).rejects.toBeInstanceOf(CryptoError)
    },
  )
})

describe('decodeCompactJws', () => {
  it('splits a JWS into header, payload, signing input and signature', async () => {
    const { signer } = await webCryptoSigner('ES256')
    const jws = await signCompactJws({ x5c: ['AA=='] }, { iss: 'https://x' }, signer)
    const decoded = decodeCompactJws(jws)
    expect(decoded.header).toEqual({ x5c: ['AA=='], alg: 'ES256' })
    expect(decoded.payload).toEqual({ iss: 'https://x' })
    expect(new TextDecoder().decode(decoded.signingInput)).toBe(
      jws.split('.').slice(0, 2).join('.'),
    )
    expect(decoded.signature.length).toBe(64)
  })

  it.each([
    42,
    'a.b',
    'a.b.c.d',
    'e30.e30.',
    '!!.e30.AA',
    'WzFd.e30.AA',
    'e30.bm90IGpzb24.AA',
    'e30.e30.***',
  ])('rejects %j with a CryptoError', (value) => {
    expect(() => decodeCompactJws(value)).toThrow(CryptoError)
  })
})

describe('ECDSA signature conversion', () => {
  it('converts DER with leading zero padding and short integers', () => {
    const der = Uint8Array.from([0x30, 0x08, 0x02, 0x02, 0x00, 0x80, 0x02, 0x02, 0x01, 0x02])
    expect(Array.from(ecdsaDerToJose(der, 4))).toEqual([0, 0, 0, 0x80, 0, 0, 1, 2])
  })

  it('passes r‖s of the right length through', () => {
    const raw = new Uint8Array(64).fill(7)
    expect(normalizeEcdsaSignature(raw, 32)).toBe(raw)
  })

  it.each([
    [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01],
    [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01],
    [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01],
    [0x30, 0x06, 0x02, 0x00, 0x02, 0x02, 0x01, 0x01],
    [0x30],
  ])('rejects malformed DER %j', (...bytes) => {
    expect(() => ecdsaDerToJose(Uint8Array.from(bytes), 32)).toThrow(CryptoError)
  })
})

describe('isJwsSigner', () => {
  it('recognises the signer shape', () => {
    expect(isJwsSigner({ alg: 'RS384', sign: async () => new Uint8Array() })).toBe(true)
    expect(isJwsSigner({ alg: 'RS384' })).toBe(false)
    expect(isJwsSigner('pem')).toBe(false)
    expect(isJwsSigner(null)).toBe(false)
  })
})

describe('selectSigningAlgorithm input checks', () => {
  it('refuses an unknown profile with a ConfigurationError, not a TypeError', () => {
    expect(() =>
      selectSigningAlgorithm({
        profile: 'oauth' as never,
        key: { type: 'EC', namedCurve: 'P-521' },
      }),
    ).toThrow(ConfigurationError)
  })
})
