import {
  ConfigurationError,
  CryptoError,
  type JwsSigner,
  type SigningAlgorithm,
} from '@fhir-auth/core'
import { signCompactJws } from '@fhir-auth/core/jws'
import { compactVerify, importX509 } from 'jose'
import { describe, expect, it } from 'vitest'
import { createWebCryptoBackend } from '../src/index.js'
import {
  clientEc256Certificate,
  clientEc256Key,
  clientEc256Sec1,
  clientEc384Certificate,
  clientEc384Key,
  clientRsaCertificate,
  clientRsaKey,
  clientRsaPkcs1,
} from './fixtures/webcrypto-fixtures.js'
import {
  ecP256,
  ecP384,
  importPrivateKey,
  privateJwkOf,
  publicJwkOf,
  rejectionOf,
  rsaSha256,
  rsaSha384,
} from './helpers/keys.js'

const backend = createWebCryptoBackend()

/** Signs a JWS with the signer and verifies it with jose and the certificate's key. */
async function verifiesWithJose(signer: JwsSigner, certificatePem: string): Promise<boolean> {
  const jws = await signCompactJws({ typ: 'JWT' }, { iss: 'test' }, signer)
  const key = await importX509(certificatePem, signer.alg)
  const { protectedHeader } = await compactVerify(jws, key)
  return protectedHeader.alg === signer.alg
}

describe('importSigner from PEM', () => {
  it.each([
    ['PKCS#8 RSA', clientRsaKey, 'smart', 'RS384', clientRsaCertificate],
    ['PKCS#1 RSA', clientRsaPkcs1, 'smart', 'RS384', clientRsaCertificate],
    ['PKCS#8 RSA', clientRsaKey, 'udap', 'RS256', clientRsaCertificate],
    ['PKCS#8 P-256', clientEc256Key, 'udap', 'ES256', clientEc256Certificate],
    ['SEC1 P-256', clientEc256Sec1, 'udap', 'ES256', clientEc256Certificate],
    ['PKCS#8 P-384', clientEc384Key, 'smart', 'ES384', clientEc384Certificate],
    ['PKCS#8 P-384', clientEc384Key, 'udap', 'ES384', clientEc384Certificate],
  ] as const)('signs with a %s key under %s as %s', async (_, pem, profile, alg, certificate) => {
    const signer = await backend.importSigner(pem, { profile })
    expect(signer.alg).toBe(alg)
    expect(await verifiesWithJose(signer, certificate)).toBe(true)
  })

  it('returns JOSE r‖s signatures of 64 bytes for ES256 and 96 for ES384', async () => {
    const es256 = await backend.importSigner(clientEc256Key, { profile: 'udap' })
    const es384 = await backend.importSigner(clientEc384Key, { profile: 'udap' })
    const input = new TextEncoder().encode('header.payload')
    expect((await es256.sign(input)).length).toBe(64)
    expect((await es384.sign(input)).length).toBe(96)
  })

  it('uses an explicit algorithm the key can make', async () => {
    const signer = await backend.importSigner(clientRsaKey, { profile: 'udap', algorithm: 'RS384' })
    expect(signer.alg).toBe('RS384')
    expect(await verifiesWithJose(signer, clientRsaCertificate)).toBe(true)
  })

  it('picks the first compatible algorithm the server advertises', async () => {
    const signer = await backend.importSigner(clientRsaKey, {
      profile: 'udap',
      advertisedAlgorithms: ['ES256', 'RS384'],
    })
    expect(signer.alg).toBe('RS384')
  })

  it('refuses an explicit algorithm the key cannot make with a ConfigurationError', async () => {
    const error = await rejectionOf(
      backend.importSigner(clientEc256Key, { profile: 'udap', algorithm: 'ES384' }),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('jwtAlgorithm')
  })

  it('refuses a P-256 key for SMART, which allows RSA and P-384 only', async () => {
    const error = await rejectionOf(backend.importSigner(clientEc256Key, { profile: 'smart' }))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe('unsupported-key')
  })

  it('attaches kid and a copy of the certificate chain', async () => {
    const chain = [new Uint8Array([1, 2, 3])]
    const signer = await backend.importSigner(clientRsaKey, {
      profile: 'smart',
      kid: 'key-1',
      certificateChain: chain,
    })
    expect(signer.kid).toBe('key-1')
    expect(signer.certificateChain).toEqual(chain)
    chain[0]?.fill(0)
    expect(signer.certificateChain?.[0]).toEqual(new Uint8Array([1, 2, 3]))
  })

  it('keeps the key out of the signer object', async () => {
    const signer = await backend.importSigner(clientRsaKey, { profile: 'smart', kid: 'k' })
    expect(Object.keys(signer).sort()).toEqual(['alg', 'kid', 'sign'])
    expect(JSON.stringify(signer)).toBe('{"alg":"RS384","kid":"k"}')
  })

  it.each([
    ['garbage', 'not a key', 'invalid-key'],
    [
      'a public key PEM',
      '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n',
      'invalid-key',
    ],
    [
      'an encrypted PEM',
      '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n',
      'invalid-key',
    ],
  ])('refuses %s with CryptoError %s', async (_, pem, reason) => {
    const error = await rejectionOf(backend.importSigner(pem, { profile: 'smart' }))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe(reason)
  })
})

describe('importSigner from a JWK', () => {
  it('signs with a private RSA JWK, ignoring its alg, use and key_ops hints', async () => {
    const jwk = await privateJwkOf(clientRsaKey, rsaSha256)
    const signer = await backend.importSigner(
      { ...jwk, alg: 'RS256', use: 'sig', key_ops: ['sign'] },
      { profile: 'smart' },
    )
    expect(signer.alg).toBe('RS384')
    expect(await verifiesWithJose(signer, clientRsaCertificate)).toBe(true)
  })

  it('signs with a private P-384 JWK', async () => {
    const jwk = await privateJwkOf(clientEc384Key, ecP384)
    const signer = await backend.importSigner(jwk, { profile: 'smart' })
    expect(signer.alg).toBe('ES384')
    expect(await verifiesWithJose(signer, clientEc384Certificate)).toBe(true)
  })

  it('refuses a public JWK with invalid-key', async () => {
    const jwk = await publicJwkOf(clientEc256Key, ecP256)
    const error = await rejectionOf(backend.importSigner(jwk, { profile: 'udap' }))
    expect((error as CryptoError).reason).toBe('invalid-key')
    expect((error as Error).message).toMatch(/public key/)
  })

  it('refuses an OKP or symmetric JWK with unsupported-key', async () => {
    const okp = rejectionOf(
      backend.importSigner({ kty: 'OKP', crv: 'Ed25519', d: 'AA' }, { profile: 'udap' }),
    )
    const oct = rejectionOf(
      backend.importSigner({ kty: 'oct', k: 'AA' } as never, { profile: 'udap' }),
    )
    expect(((await okp) as CryptoError).reason).toBe('unsupported-key')
    expect(((await oct) as CryptoError).reason).toBe('unsupported-key')
  })
})

describe('importSigner from a CryptoKey', () => {
  it('signs with a non-extractable ECDSA key, choosing the hash at sign time', async () => {
    const key = await importPrivateKey(clientEc256Key, ecP256)
    expect(key.extractable).toBe(false)
    const signer = await backend.importSigner(key, { profile: 'udap' })
    expect(signer.alg).toBe('ES256')
    expect(await verifiesWithJose(signer, clientEc256Certificate)).toBe(true)
  })

  it('signs RS384 with a non-extractable RSA SHA-384 key under SMART', async () => {
    const key = await importPrivateKey(clientRsaKey, rsaSha384)
    const signer = await backend.importSigner(key, { profile: 'smart' })
    expect(signer.alg).toBe('RS384')
    expect(await verifiesWithJose(signer, clientRsaCertificate)).toBe(true)
  })

  it('uses the bound hash under UDAP even though RS256 is preferred', async () => {
    const key = await importPrivateKey(clientRsaKey, rsaSha384)
    const signer = await backend.importSigner(key, { profile: 'udap' })
    expect(signer.alg).toBe('RS384')
  })

  it('refuses an RSA SHA-256 key for SMART with an error naming what the key can make', async () => {
    const key = await importPrivateKey(clientRsaKey, rsaSha256)
    const error = await rejectionOf(backend.importSigner(key, { profile: 'smart' }))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe('algorithm-mismatch')
    expect((error as Error).message).toContain('makes RS256 only')
  })

  it('refuses an explicit algorithm other than the bound one on jwtAlgorithm', async () => {
    const key = await importPrivateKey(clientRsaKey, rsaSha256)
    const error = await rejectionOf(
      backend.importSigner(key, { profile: 'udap', algorithm: 'RS384' }),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).validValues).toEqual(['RS256'])
  })

  it('reports no-common-algorithm when the server does not accept the bound algorithm', async () => {
    const key = await importPrivateKey(clientRsaKey, rsaSha384)
    const error = await rejectionOf(
      backend.importSigner(key, { profile: 'udap', advertisedAlgorithms: ['RS256', 'ES256'] }),
    )
    expect((error as CryptoError).reason).toBe('no-common-algorithm')
  })

  it('refuses an RSA key bound to SHA-512, a public key and a key without sign usage', async () => {
    const sha512 = await importPrivateKey(clientRsaKey, {
      name: 'RSASSA-PKCS1-v1_5',
      hash: 'SHA-512',
    })
    const verifyOnly = await crypto.subtle.importKey(
      'jwk',
      (await publicJwkOf(clientEc256Key, ecP256)) as JsonWebKey,
      ecP256,
      true,
      ['verify'],
    )
    const pss = await importPrivateKey(clientRsaKey, { name: 'RSA-PSS', hash: 'SHA-256' })
    const reasons = await Promise.all(
      [sha512, verifyOnly, pss].map(async (key) => {
        const error = await rejectionOf(backend.importSigner(key, { profile: 'udap' }))
        expect(error).toBeInstanceOf(CryptoError)
        return (error as CryptoError).reason
      }),
    )
    expect(reasons).toEqual(['algorithm-mismatch', 'invalid-key', 'unsupported-key'])
  })
})

describe('importSigner with a ready JwsSigner', () => {
  const fakeSigner = (alg: SigningAlgorithm, extra: Partial<JwsSigner> = {}): JwsSigner => ({
    alg,
    sign: async () => new Uint8Array(64),
    ...extra,
  })

  it('passes an allowed signer through unchanged', async () => {
    const signer = fakeSigner('ES384', { kid: 'hsm' })
    expect(await backend.importSigner(signer, { profile: 'smart' })).toBe(signer)
  })

  it('adds kid and certificate chain from the options when the signer has none', async () => {
    const signer = fakeSigner('RS256')
    const chain = [new Uint8Array([9])]
    const adopted = await backend.importSigner(signer, {
      profile: 'udap',
      kid: 'k1',
      certificateChain: chain,
    })
    expect(adopted).not.toBe(signer)
    expect(adopted.kid).toBe('k1')
    expect(adopted.certificateChain).toBe(chain)
    expect(await adopted.sign(new Uint8Array([1]))).toEqual(new Uint8Array(64))
  })

  it.each([
    ['RS256', 'smart', 'algorithm-mismatch'],
    ['ES256', 'smart', 'unsupported-key'],
  ] as const)('refuses an %s signer under %s with %s', async (alg, profile, reason) => {
    const error = await rejectionOf(backend.importSigner(fakeSigner(alg), { profile }))
    expect((error as CryptoError).reason).toBe(reason)
  })

  it('refuses a signer whose alg is not one we sign with', async () => {
    const error = await rejectionOf(
      backend.importSigner(fakeSigner('PS256' as SigningAlgorithm), { profile: 'udap' }),
    )
    expect((error as CryptoError).reason).toBe('unsupported-key')
  })

  it('refuses a signer when the server does not accept its algorithm', async () => {
    const error = await rejectionOf(
      backend.importSigner(fakeSigner('ES256'), {
        profile: 'udap',
        advertisedAlgorithms: ['RS256'],
      }),
    )
    expect((error as CryptoError).reason).toBe('no-common-algorithm')
  })
})

describe('importSigner with other values', () => {
  it('refuses a Node KeyObject and points to crypto-node', async () => {
    const keyObjectLike = { type: 'private', asymmetricKeyType: 'rsa', export: () => '' }
    const error = await rejectionOf(backend.importSigner(keyObjectLike, { profile: 'smart' }))
    expect((error as CryptoError).reason).toBe('unsupported-key')
    expect((error as Error).message).toContain('@fhir-auth/crypto-node')
  })

  it.each([
    ['null', null],
    ['a number', 42],
    ['DER bytes', new Uint8Array([48, 0])],
    ['an empty object', {}],
  ])('refuses %s with invalid-key', async (_, value) => {
    const error = await rejectionOf(backend.importSigner(value as never, { profile: 'smart' }))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe('invalid-key')
  })
})

describe('importSigner options', () => {
  it.each([
    ['no options', undefined, 'options'],
    ['an unknown profile', { profile: 'oidc' }, 'profile'],
    ['a numeric algorithm', { profile: 'smart', algorithm: 384 }, 'jwtAlgorithm'],
    [
      'advertised algorithms as text',
      { profile: 'udap', advertisedAlgorithms: 'RS256' },
      'advertisedAlgorithms',
    ],
    ['a numeric kid', { profile: 'smart', kid: 1 }, 'kid'],
    ['a chain of strings', { profile: 'udap', certificateChain: ['MIIB'] }, 'certificateChain'],
  ])('refuses %s with a ConfigurationError on %s', async (_, options, attribute) => {
    const error = await rejectionOf(backend.importSigner(clientRsaKey, options as never))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
  })
})
