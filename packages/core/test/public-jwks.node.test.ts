import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  X509Certificate,
} from 'node:crypto'
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  importPKCS8,
  jwtVerify,
  SignJWT,
} from 'jose'
import { describe, expect, it } from 'vitest'
import { ConfigurationError, CryptoError, type Jwk, publicJwks } from '../src/index.js'
import { sha256Sync } from '../src/keys/sha256-sync.js'
import { openTestPkiFiles } from './x509/fixtures/test-pki-files.js'

const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']

function pemPair(type: 'rsa' | 'ec') {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-384' })
  return {
    pkcs8: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    traditional: pair.privateKey.export({
      type: type === 'rsa' ? 'pkcs1' : 'sec1',
      format: 'pem',
    }) as string,
    spki: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  }
}

/** The test PKI's EC leaf certificate, and its public key as node:crypto reads it. */
function openTestPkiLeaf(): { der: Uint8Array; jwk: Jwk } {
  const der = openTestPkiFiles().bytes('leaves/ec-p256-client/certificate.der')
  const jwk = new X509Certificate(der).publicKey.export({ format: 'jwk' }) as Jwk
  return { der, jwk }
}

const rsa = pemPair('rsa')
const ec = pemPair('ec')
// A private JWK read back from PEM (never exported from a fresh EC KeyObject: Node 20 can hang).
const privateRsaJwk = createPrivateKey(rsa.pkcs8).export({ format: 'jwk' }) as Jwk

function expectPublicOnly(key: object) {
  for (const member of privateMembers) expect(key).not.toHaveProperty(member)
}

describe('publicJwks', () => {
  it('publishes RSA and EC keys with the RFC 7638 thumbprint as kid, SMART algorithms and use sig', async () => {
    const jwks = publicJwks([rsa.pkcs8, ec.traditional])
    expect(jwks.keys).toHaveLength(2)
    const [rsaKey, ecKey] = jwks.keys
    expect(rsaKey).toMatchObject({ kty: 'RSA', alg: 'RS384', use: 'sig' })
    expect(ecKey).toMatchObject({ kty: 'EC', crv: 'P-384', alg: 'ES384', use: 'sig' })
    expect(Object.keys(rsaKey ?? {}).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
    expect(Object.keys(ecKey ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y'])
    expect(rsaKey?.kid).toBe(await calculateJwkThumbprint(rsaKey as never, 'sha256'))
    expect(ecKey?.kid).toBe(await calculateJwkThumbprint(ecKey as never, 'sha256'))
    for (const key of jwks.keys) expectPublicOnly(key)
  })

  it('reads every PEM form of one key to the same public JWK', () => {
    for (const pair of [rsa, ec]) {
      const [a, b, c] = publicJwks([
        { key: pair.pkcs8, kid: 'a' },
        { key: pair.traditional, kid: 'b' },
        { key: pair.spki, kid: 'c' },
      ]).keys
      const { kid: _a, ...first } = a as Jwk & { kid: string }
      expect({ ...b, kid: undefined }).toEqual({ ...first, kid: undefined })
      expect({ ...c, kid: undefined }).toEqual({ ...first, kid: undefined })
    }
  })

  it('never copies a private member of a private JWK, and keeps its own kid and alg', () => {
    const jwks = publicJwks([
      { ...privateRsaJwk, kid: 'rsa-2026', alg: 'RS256', key_ops: ['sign'] },
    ])
    expect(jwks.keys[0]).toEqual({
      kty: 'RSA',
      n: privateRsaJwk.n,
      e: privateRsaJwk.e,
      kid: 'rsa-2026',
      alg: 'RS256',
      use: 'sig',
    })
    expect(JSON.stringify(jwks)).not.toContain(privateRsaJwk.d)
  })

  it('reads a Node KeyObject without exporting it as a JWK', () => {
    const key = createPrivateKey(ec.pkcs8)
    const [published] = publicJwks([key]).keys
    expect(published).toEqual(publicJwks([ec.spki]).keys[0])
    expectPublicOnly(published ?? {})
  })

  it('takes kid and alg from an entry, else from its signer', () => {
    const signer = { alg: 'ES384' as const, kid: 'kms-key-7', sign: async () => new Uint8Array() }
    const jwks = publicJwks([
      { key: ec.spki, signer },
      { key: rsa.spki, kid: 'next', alg: 'RS256' },
    ])
    expect(jwks.keys.map(({ kid, alg }) => [kid, alg])).toEqual([
      ['kms-key-7', 'ES384'],
      ['next', 'RS256'],
    ])
  })

  it('gives a signed assertion that jose verifies against the published set', async () => {
    const jwks = publicJwks([rsa.pkcs8, ec.pkcs8])
    const ecKid = jwks.keys[1]?.kid ?? ''
    const assertion = await new SignJWT({ sub: 'app' })
      .setProtectedHeader({ alg: 'ES384', kid: ecKid })
      .sign(await importPKCS8(ec.pkcs8, 'ES384'))
    const { protectedHeader } = await jwtVerify(assertion, createLocalJWKSet(jwks as never))
    expect(protectedHeader.kid).toBe(ecKid)
  })

  it("publishes a signer with a certificate chain under its leaf certificate's key, kid and alg", () => {
    const leaf = openTestPkiLeaf()
    const signer = {
      alg: 'ES256' as const,
      kid: 'udap-key',
      certificateChain: [leaf.der],
      sign: async () => new Uint8Array(),
    }
    const [published] = publicJwks([signer]).keys
    expect(published).toEqual({ ...leaf.jwk, kid: 'udap-key', alg: 'ES256', use: 'sig' })
  })

  it('refuses inputs without a public key, two keys with one kid, and unsupported curves', async () => {
    const signer = { alg: 'ES384' as const, sign: async () => new Uint8Array() }
    expect(() => publicJwks([signer as never])).toThrow(ConfigurationError)
    expect(() => publicJwks([signer as never])).toThrow(
      /JwsSigner without a certificateChain.*\{ signer, key/,
    )
    const notACertificate = { ...signer, certificateChain: [Uint8Array.of(1, 2, 3)] }
    expect(() => publicJwks([notACertificate])).toThrow(
      /certificateChain\[0\] is not a certificate/,
    )
    const { privateKey } = await crypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-384' },
      false,
      ['sign', 'verify'],
    )
    expect(() => publicJwks([privateKey as never])).toThrow(/CryptoKey: export it/)
    expect(() => publicJwks([rsa.pkcs8, rsa.traditional])).toThrow(/two keys have kid/)
    expect(() => publicJwks('pem' as never)).toThrow(ConfigurationError)
    expect(() => publicJwks(['not a key'])).toThrow(CryptoError)
    const p521 = generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey
    expect(() => publicJwks([p521.export({ type: 'pkcs8', format: 'pem' }) as string])).toThrow(
      CryptoError,
    )
    const exported = await exportJWK(createPrivateKey(rsa.pkcs8))
    expect(() => publicJwks([{ ...exported, kty: 'oct' }])).toThrow(/not an RSA or EC key/)
  })
})

describe('sha256Sync', () => {
  it('agrees with node:crypto for every length across the padding boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = randomBytes(length)
      const expected = createHash('sha256').update(bytes).digest('hex')
      expect(Buffer.from(sha256Sync(new Uint8Array(bytes))).toString('hex')).toBe(expected)
    }
  })
})
