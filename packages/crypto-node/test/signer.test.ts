import {
  createSecretKey,
  generateKeyPairSync,
  type KeyObject,
  verify,
  webcrypto,
} from 'node:crypto'
import { inspect } from 'node:util'
import {
  FhirAuthError,
  type ImportSignerOptions,
  type Jwk,
  type JwsSigner,
  type PrivateKeyInput,
} from '@fhir-auth/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createNodeCryptoBackend } from '../src/index.js'
import {
  expectConfigurationError,
  expectCryptoError,
  rejectionOf,
  signAndVerifyWithJose,
} from './support/assertions.js'
import { generateTestKey, type TestKey } from './support/keys.js'

const backend = createNodeCryptoBackend()
let rsa: TestKey
let p256: TestKey
let p384: TestKey
let p521: TestKey

beforeAll(() => {
  rsa = generateTestKey('rsa2048')
  p256 = generateTestKey('p256')
  p384 = generateTestKey('p384')
  p521 = generateTestKey('p521')
})

async function importPkcs8CryptoKey(
  pem: string,
  algorithm: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams,
): Promise<webcrypto.CryptoKey> {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
  return webcrypto.subtle.importKey('pkcs8', Buffer.from(body, 'base64'), algorithm, false, [
    'sign',
  ])
}

describe('importSigner: every key form signs what jose verifies', () => {
  const forms: [string, (key: TestKey) => PrivateKeyInput][] = [
    ['PKCS#8 PEM', (key) => key.pkcs8Pem],
    ['PKCS#1 / SEC1 PEM', (key) => key.traditionalPem],
    ['private JWK', (key) => key.privateJwk],
    ['KeyObject', (key) => key.privateKey],
  ]
  for (const [form, pick] of forms) {
    it(`RSA as ${form} → RS384 for SMART`, async () => {
      const signer = await backend.importSigner(pick(rsa), { profile: 'smart' })
      expect(signer.alg).toBe('RS384')
      expect((await signAndVerifyWithJose(signer, rsa.publicJwk)).length).toBe(256)
    })
    it(`EC P-384 as ${form} → ES384 with a 96-byte r‖s`, async () => {
      const signer = await backend.importSigner(pick(p384), { profile: 'smart' })
      expect(signer.alg).toBe('ES384')
      expect((await signAndVerifyWithJose(signer, p384.publicJwk)).length).toBe(96)
    })
    it(`EC P-256 as ${form} → ES256 for UDAP with a 64-byte r‖s`, async () => {
      const signer = await backend.importSigner(pick(p256), { profile: 'udap' })
      expect(signer.alg).toBe('ES256')
      expect((await signAndVerifyWithJose(signer, p256.publicJwk)).length).toBe(64)
    })
  }

  it('accepts a non-extractable ECDSA CryptoKey', async () => {
    const cryptoKey = await importPkcs8CryptoKey(p384.pkcs8Pem, {
      name: 'ECDSA',
      namedCurve: 'P-384',
    })
    const signer = await backend.importSigner(cryptoKey, { profile: 'smart' })
    expect(signer.alg).toBe('ES384')
    expect((await signAndVerifyWithJose(signer, p384.publicJwk)).length).toBe(96)
  })

  it('accepts an RSASSA-PKCS1-v1_5 CryptoKey and keeps the hash it was imported for', async () => {
    const sha384Key = await importPkcs8CryptoKey(rsa.pkcs8Pem, {
      name: 'RSASSA-PKCS1-v1_5',
      hash: 'SHA-384',
    })
    const smartSigner = await backend.importSigner(sha384Key, { profile: 'smart' })
    expect(smartSigner.alg).toBe('RS384')
    await signAndVerifyWithJose(smartSigner, rsa.publicJwk)
    // UDAP would prefer RS256 for an RSA key, but this key allows SHA-384 only.
    const udapSigner = await backend.importSigner(sha384Key, { profile: 'udap' })
    expect(udapSigner.alg).toBe('RS384')
  })

  it('refuses a CryptoKey bound to a hash the profile cannot use', async () => {
    const sha256Key = await importPkcs8CryptoKey(rsa.pkcs8Pem, {
      name: 'RSASSA-PKCS1-v1_5',
      hash: 'SHA-256',
    })
    const error = await expectCryptoError(
      backend.importSigner(sha256Key, { profile: 'smart' }),
      'algorithm-mismatch',
    )
    expect(error.message).toContain('RS256')
    const sha512Key = await importPkcs8CryptoKey(rsa.pkcs8Pem, {
      name: 'RSASSA-PKCS1-v1_5',
      hash: 'SHA-512',
    })
    await expectCryptoError(
      backend.importSigner(sha512Key, { profile: 'udap' }),
      'algorithm-mismatch',
    )
    const explicit = await expectConfigurationError(
      backend.importSigner(sha256Key, { profile: 'udap', algorithm: 'RS384' }),
      'jwtAlgorithm',
    )
    expect(explicit.validValues).toEqual(['RS256'])
  })

  it('finds a private key after other PEM blocks (a certificate + key file)', async () => {
    const combined = `-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n${rsa.pkcs8Pem}`
    const signer = await backend.importSigner(combined, { profile: 'udap' })
    await signAndVerifyWithJose(signer, rsa.publicJwk)
  })
})

describe('importSigner: algorithm selection', () => {
  const table: [string, () => TestKey, ImportSignerOptions, string][] = [
    ['SMART RSA', () => rsa, { profile: 'smart' }, 'RS384'],
    ['SMART P-384', () => p384, { profile: 'smart' }, 'ES384'],
    ['UDAP RSA', () => rsa, { profile: 'udap' }, 'RS256'],
    [
      'UDAP RSA, server lists RS384 only',
      () => rsa,
      { profile: 'udap', advertisedAlgorithms: ['RS384'] },
      'RS384',
    ],
    ['UDAP RSA, explicit RS384', () => rsa, { profile: 'udap', algorithm: 'RS384' }, 'RS384'],
    ['UDAP P-256', () => p256, { profile: 'udap' }, 'ES256'],
    ['UDAP P-384', () => p384, { profile: 'udap' }, 'ES384'],
    [
      'UDAP P-384, server lists ES384 and RS256',
      () => p384,
      { profile: 'udap', advertisedAlgorithms: ['RS256', 'ES384'] },
      'ES384',
    ],
  ]
  for (const [name, key, options, expected] of table) {
    it(`${name} → ${expected}`, async () => {
      const signer = await backend.importSigner(key().pkcs8Pem, options)
      expect(signer.alg).toBe(expected)
      await signAndVerifyWithJose(signer, key().publicJwk)
    })
  }

  it('refuses P-256 for SMART (RS384 or ES384 only)', async () => {
    await expectCryptoError(
      backend.importSigner(p256.pkcs8Pem, { profile: 'smart' }),
      'unsupported-key',
    )
  })

  it('refuses P-521 for both profiles', async () => {
    await expectCryptoError(
      backend.importSigner(p521.pkcs8Pem, { profile: 'udap' }),
      'unsupported-key',
    )
    await expectCryptoError(
      backend.importSigner(p521.privateJwk, { profile: 'smart' }),
      'unsupported-key',
    )
  })

  it('refuses an explicit algorithm the key cannot make, listing the ones it can', async () => {
    const error = await expectConfigurationError(
      backend.importSigner(rsa.pkcs8Pem, { profile: 'smart', algorithm: 'ES384' }),
      'jwtAlgorithm',
    )
    expect(error.validValues).toEqual(['RS384'])
  })

  it('refuses when the server advertises none of the key’s algorithms', async () => {
    await expectCryptoError(
      backend.importSigner(p256.pkcs8Pem, { profile: 'udap', advertisedAlgorithms: ['RS256'] }),
      'no-common-algorithm',
    )
  })

  it('refuses an RSA key shorter than 2048 bits', async () => {
    const short = generateTestKey('rsa1024')
    const error = await expectCryptoError(
      backend.importSigner(short.pkcs8Pem, { profile: 'udap' }),
      'unsupported-key',
    )
    expect(error.message).toContain('1024')
  })

  it('refuses key types that cannot make RS* or ES* signatures', async () => {
    const ed25519 = generateKeyPairSync('ed25519').privateKey
    await expectCryptoError(backend.importSigner(ed25519, { profile: 'udap' }), 'unsupported-key')
    const pssOnly = generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).privateKey
    await expectCryptoError(backend.importSigner(pssOnly, { profile: 'udap' }), 'unsupported-key')
  })
})

describe('importSigner: the returned signer', () => {
  it('carries kid and certificateChain from the options, copied', async () => {
    const certificateChain = [new Uint8Array([1, 2, 3]), new Uint8Array([4])]
    const signer = await backend.importSigner(p256.pkcs8Pem, {
      profile: 'udap',
      kid: 'key-1',
      certificateChain,
    })
    certificateChain.pop()
    expect(signer.kid).toBe('key-1')
    expect(signer.certificateChain).toHaveLength(2)
    expect(Object.isFrozen(signer)).toBe(true)
  })

  it('has no kid or certificateChain members when none were given', async () => {
    const signer = await backend.importSigner(p256.pkcs8Pem, { profile: 'udap' })
    expect(Object.keys(signer).sort()).toEqual(['alg', 'sign'])
  })

  it('never shows key material in inspect or JSON output', async () => {
    const signer = await backend.importSigner(rsa.privateJwk, { profile: 'smart' })
    const shown = `${inspect(signer, { depth: 10, showHidden: true })}${JSON.stringify(signer)}`
    expect(shown).not.toContain(rsa.privateJwk.d?.slice(0, 16))
    expect(shown).not.toContain('PRIVATE')
    expect(shown).not.toMatch(/KeyObject/)
  })

  it('signs bytes only, with a typed error otherwise', async () => {
    const signer = await backend.importSigner(p256.pkcs8Pem, { profile: 'udap' })
    await expectCryptoError(signer.sign('text' as unknown as Uint8Array), 'invalid-signature')
  })

  it('returns ECDSA signatures as JOSE r‖s itself (64 / 96 bytes), not DER', async () => {
    const input = new TextEncoder().encode('header.payload')
    for (const [key, profile, length] of [
      [p256, 'udap', 64],
      [p384, 'smart', 96],
    ] as const) {
      const signer = await backend.importSigner(key.pkcs8Pem, { profile })
      for (let round = 0; round < 5; round++) {
        const signature = await signer.sign(input)
        expect(signature).toHaveLength(length)
        const hash = signer.alg === 'ES256' ? 'sha256' : 'sha384'
        expect(
          verify(hash, input, { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, signature),
        ).toBe(true)
      }
    }
  })

  it('makes a fresh ECDSA signature each time (randomised nonce)', async () => {
    const signer = await backend.importSigner(p256.pkcs8Pem, { profile: 'udap' })
    const input = new TextEncoder().encode('same input')
    expect(await signer.sign(input)).not.toEqual(await signer.sign(input))
  })
})

describe('importSigner: unusable keys are typed errors', () => {
  it('refuses encrypted PKCS#8 PEM, naming the problem and not the secret', async () => {
    const encrypted = rsa.privateKey
      .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'hunter2' })
      .toString()
    const error = await expectCryptoError(
      backend.importSigner(encrypted, { profile: 'smart' }),
      'invalid-key',
    )
    expect(error.message).toMatch(/encrypted/)
    expect(error.message).not.toContain(encrypted.split('\n')[1])
  })

  it('refuses legacy encrypted PEM (Proc-Type: 4,ENCRYPTED)', async () => {
    const encrypted = rsa.privateKey
      .export({ format: 'pem', type: 'pkcs1', cipher: 'aes-256-cbc', passphrase: 'hunter2' })
      .toString()
    expect(encrypted).toContain('Proc-Type: 4,ENCRYPTED')
    const error = await expectCryptoError(
      backend.importSigner(encrypted, { profile: 'smart' }),
      'invalid-key',
    )
    expect(error.message).toMatch(/encrypted/)
  })

  it('refuses garbage inside a PRIVATE KEY block', async () => {
    const garbage = '-----BEGIN PRIVATE KEY-----\nQUJDRA==\n-----END PRIVATE KEY-----\n'
    await expectCryptoError(backend.importSigner(garbage, { profile: 'smart' }), 'invalid-key')
  })

  it('refuses a truncated private key', async () => {
    const lines = rsa.pkcs8Pem.trim().split('\n')
    const truncated = [...lines.slice(0, 5), lines.at(-1)].join('\n')
    await expectCryptoError(backend.importSigner(truncated, { profile: 'smart' }), 'invalid-key')
  })

  it('refuses text without a private key block, naming what it found', async () => {
    const publicPem = rsa.publicKey.export({ format: 'pem', type: 'spki' }).toString()
    const error = await expectCryptoError(
      backend.importSigner(publicPem, { profile: 'smart' }),
      'invalid-key',
    )
    expect(error.message).toContain('PUBLIC KEY')
    await expectCryptoError(backend.importSigner('not a key', { profile: 'smart' }), 'invalid-key')
  })

  it('refuses public JWKs, public KeyObjects and secret keys', async () => {
    await expectCryptoError(
      backend.importSigner(rsa.publicJwk, { profile: 'smart' }),
      'invalid-key',
    )
    await expectCryptoError(
      backend.importSigner(rsa.publicKey, { profile: 'smart' }),
      'invalid-key',
    )
    const secret: KeyObject = createSecretKey(new Uint8Array(32))
    await expectCryptoError(backend.importSigner(secret, { profile: 'smart' }), 'invalid-key')
  })

  it('refuses JWKs of key types that cannot sign RS* or ES*', async () => {
    const okp = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })
    await expectCryptoError(backend.importSigner(okp, { profile: 'udap' }), 'unsupported-key')
    await expectCryptoError(
      backend.importSigner({ kty: 'oct', k: 'c2VjcmV0' } as Jwk, { profile: 'udap' }),
      'unsupported-key',
    )
  })

  it('refuses a malformed private JWK', async () => {
    const { n: _dropped, ...withoutModulus } = rsa.privateJwk
    await expectCryptoError(
      backend.importSigner(withoutModulus, { profile: 'smart' }),
      'invalid-key',
    )
  })

  it('refuses CryptoKeys for algorithms other than RSASSA-PKCS1-v1_5 and ECDSA', async () => {
    const pss = await importPkcs8CryptoKey(rsa.pkcs8Pem, { name: 'RSA-PSS', hash: 'SHA-384' })
    await expectCryptoError(backend.importSigner(pss, { profile: 'smart' }), 'unsupported-key')
  })

  it('refuses CryptoKeys that are public or not from this process', async () => {
    const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
      'sign',
      'verify',
    ])
    await expectCryptoError(
      backend.importSigner(pair.publicKey, { profile: 'smart' }),
      'invalid-key',
    )
    const fake = {
      type: 'private',
      extractable: false,
      algorithm: { name: 'ECDSA' },
      usages: ['sign'],
    }
    await expectCryptoError(backend.importSigner(fake, { profile: 'smart' }), 'invalid-key')
  })

  it('refuses values of other types without a TypeError', async () => {
    for (const value of [undefined, null, 42, [], {}, new Uint8Array(8)]) {
      const error = await rejectionOf(
        backend.importSigner(value as unknown as PrivateKeyInput, { profile: 'smart' }),
      )
      expect(error).toBeInstanceOf(FhirAuthError)
    }
  })

  it('checks the options', async () => {
    await expectConfigurationError(
      backend.importSigner(rsa.pkcs8Pem, undefined as unknown as ImportSignerOptions),
      'options',
    )
    await expectConfigurationError(
      backend.importSigner(rsa.pkcs8Pem, { profile: 'oidc' } as unknown as ImportSignerOptions),
      'profile',
    )
    await expectConfigurationError(
      backend.importSigner(rsa.pkcs8Pem, {
        profile: 'udap',
        advertisedAlgorithms: 'RS256',
      } as unknown as ImportSignerOptions),
      'advertisedAlgorithms',
    )
    await expectConfigurationError(
      backend.importSigner(rsa.pkcs8Pem, {
        profile: 'udap',
        kid: 7,
      } as unknown as ImportSignerOptions),
      'kid',
    )
    await expectConfigurationError(
      backend.importSigner(rsa.pkcs8Pem, {
        profile: 'udap',
        certificateChain: ['MIIB'],
      } as unknown as ImportSignerOptions),
      'certificateChain',
    )
  })
})

describe('importSigner: a ready JwsSigner', () => {
  function externalSigner(alg: string, extra: Partial<JwsSigner> = {}): JwsSigner {
    return { alg, sign: async () => new Uint8Array(64), ...extra } as JwsSigner
  }

  it('is returned as it is when the options add nothing', async () => {
    const signer = externalSigner('ES384', { kid: 'hsm-1' })
    expect(await backend.importSigner(signer, { profile: 'smart' })).toBe(signer)
    expect(await backend.importSigner(signer, { profile: 'smart', kid: 'config-kid' })).toBe(signer)
  })

  it('gains the kid and chain from the options when it has none, still signing itself', async () => {
    const key = await backend.importSigner(p256.pkcs8Pem, { profile: 'udap' })
    const chain = [new Uint8Array([1])]
    const wrapped = await backend.importSigner(key, {
      profile: 'udap',
      kid: 'k',
      certificateChain: chain,
    })
    expect(wrapped).not.toBe(key)
    expect(wrapped.kid).toBe('k')
    expect(wrapped.certificateChain).toBe(chain)
    await signAndVerifyWithJose(wrapped, p256.publicJwk)
  })

  it('must use an algorithm the profile allows for its key family', async () => {
    await expectCryptoError(
      backend.importSigner(externalSigner('ES256'), { profile: 'smart' }),
      'unsupported-key',
    )
    const error = await expectCryptoError(
      backend.importSigner(externalSigner('RS256'), { profile: 'smart' }),
      'algorithm-mismatch',
    )
    expect(error.message).toContain('RS384')
    await expectCryptoError(
      backend.importSigner(externalSigner('HS256'), { profile: 'udap' }),
      'unsupported-key',
    )
  })

  it('must match an explicit algorithm', async () => {
    const error = await expectConfigurationError(
      backend.importSigner(externalSigner('RS256'), { profile: 'udap', algorithm: 'RS384' }),
      'jwtAlgorithm',
    )
    expect(error.validValues).toEqual(['RS256'])
    const same = externalSigner('RS384')
    expect(await backend.importSigner(same, { profile: 'udap', algorithm: 'RS384' })).toBe(same)
  })

  it('must use an algorithm the server advertises', async () => {
    await expectCryptoError(
      backend.importSigner(externalSigner('RS384'), {
        profile: 'udap',
        advertisedAlgorithms: ['RS256', 'ES256'],
      }),
      'no-common-algorithm',
    )
  })
})
