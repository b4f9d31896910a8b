/**
 * ID token validation (OIDC Core §3.1.3.7) with real signatures: keys made and tokens signed
 * with WebCrypto, the key set served by a scripted fetch, signatures checked through a backend's
 * `verifySignature` (here WebCrypto's, in Node, the edge runtime and Chromium).
 */
import { describe, expect, it } from 'vitest'
import {
  base64UrlDecode,
  base64UrlEncode,
  base64UrlEncodeText,
  type IdTokenFailureReason,
  type Jwk,
  type VerificationAlgorithm,
} from '../src/index.js'
import { idTokenAlgorithms, publicJwkToSpki, verifyIdToken } from '../src/oidc.js'
import {
  backend,
  clientId,
  expectReason,
  goodClaims,
  issuer,
  keySet,
  now,
  nowSeconds,
  sign,
  signer,
} from './support/id-token-fixtures.js'
import { generateTestKeyPair } from './x509/fixtures/webcrypto-keys.js'

describe('verifyIdToken', () => {
  it('accepts RS256, ES256 and ES384 tokens and returns the claims, fetching the key set once', async () => {
    const signers = [
      await signer('RS256', 'rsa'),
      await signer('ES256', 'p256', 'P-256'),
      await signer('ES384', 'p384', 'P-384'),
    ]
    const { set, served } = keySet(signers.map((s) => s.jwk))
    for (const s of signers) {
      const claims = await verifyIdToken(await sign(s, goodClaims()), {
        issuer,
        clientId,
        algorithms: ['RS256', 'ES256', 'ES384'],
        keys: set,
        crypto: backend,
        now,
        nonce: 'n-1',
      })
      expect(claims.sub).toBe('user-1')
      expect(claims.fhirUser).toBe('Practitioner/1')
    }
    expect(served.fetches).toBe(1)
  })

  it('refuses each broken rule with its own reason', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const expectations = {
      issuer,
      clientId,
      algorithms: ['RS256'] as VerificationAlgorithm[],
      keys: set,
      crypto: backend,
      now,
      nonce: 'n-1',
    }
    const cases: [string, Promise<string>, IdTokenFailureReason, object?][] = [
      ['wrong iss', sign(rsa, goodClaims({ iss: 'https://evil.example' })), 'iss'],
      ['wrong aud', sign(rsa, goodClaims({ aud: 'other-app' })), 'aud'],
      ['aud list without azp', sign(rsa, goodClaims({ aud: [clientId, 'other'] })), 'azp'],
      [
        'aud list, azp of another',
        sign(rsa, goodClaims({ aud: [clientId, 'other'], azp: 'other' })),
        'azp',
      ],
      ['single aud, azp of another', sign(rsa, goodClaims({ azp: 'other' })), 'azp'],
      ['expired beyond leeway', sign(rsa, goodClaims({ exp: nowSeconds - 61 })), 'exp'],
      ['no exp', sign(rsa, goodClaims({ exp: undefined })), 'exp'],
      ['iat in the future beyond leeway', sign(rsa, goodClaims({ iat: nowSeconds + 61 })), 'iat'],
      ['string iat', sign(rsa, goodClaims({ iat: String(nowSeconds) })), 'iat'],
      ['wrong nonce', sign(rsa, goodClaims({ nonce: 'n-2' })), 'nonce'],
      ['no nonce when one was sent', sign(rsa, goodClaims({ nonce: undefined })), 'nonce'],
      ['no sub', sign(rsa, goodClaims({ sub: undefined })), 'malformed'],
      ['crit header', sign(rsa, goodClaims(), { crit: ['exp'] }), 'malformed'],
      ['other subject on refresh', sign(rsa, goodClaims()), 'sub', { subject: 'user-2' }],
      [
        'auth_time too old',
        sign(rsa, goodClaims({ auth_time: nowSeconds - 4000 })),
        'auth_time',
        { maxAgeSeconds: 3600 },
      ],
      ['no auth_time with maxAge', sign(rsa, goodClaims()), 'auth_time', { maxAgeSeconds: 3600 }],
      ['unknown kid', sign(rsa, goodClaims(), { kid: 'nope' }), 'jwks'],
    ]
    for (const [name, token, reason, extra] of cases) {
      await expectReason(verifyIdToken(await token, { ...expectations, ...extra }), reason).catch(
        (error) => {
          throw new Error(`${name}: ${error}`)
        },
      )
    }
  })

  it('accepts the edges of the 60 s leeway', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const token = await sign(rsa, goodClaims({ exp: nowSeconds - 59, iat: nowSeconds + 59 }))
    await expect(
      verifyIdToken(token, {
        issuer,
        clientId,
        algorithms: ['RS256'],
        keys: set,
        crypto: backend,
        now,
      }),
    ).resolves.toMatchObject({ sub: 'user-1' })
  })

  it('refuses alg none, HS256 keyed with the client secret, an alg the server does not advertise, and a forged signature', async () => {
    const rsa = await signer('RS256', 'rsa')
    const es = await signer('ES256', 'ec', 'P-256')
    const { set } = keySet([rsa.jwk, es.jwk])
    const expectations = {
      issuer,
      clientId,
      algorithms: ['RS256'] as VerificationAlgorithm[],
      keys: set,
      crypto: backend,
      now,
    }
    const unsigned = `${base64UrlEncodeText(JSON.stringify({ alg: 'none' }))}.${base64UrlEncodeText(JSON.stringify(goodClaims()))}.`
    await expectReason(verifyIdToken(unsigned, expectations), 'alg')
    const noneWithSignature = `${unsigned}AAAA`
    await expectReason(verifyIdToken(noneWithSignature, expectations), 'alg')
    const secret = new TextEncoder().encode('the-client-secret')
    const hmacKey = await crypto.subtle.importKey(
      'raw',
      secret,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    const hsInput = `${base64UrlEncodeText(JSON.stringify({ alg: 'HS256', kid: 'rsa' }))}.${base64UrlEncodeText(JSON.stringify(goodClaims()))}`
    const hsSignature = new Uint8Array(
      await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(hsInput)),
    )
    await expectReason(
      verifyIdToken(`${hsInput}.${base64UrlEncode(hsSignature)}`, expectations),
      'alg',
    )
    await expectReason(verifyIdToken(await sign(es, goodClaims()), expectations), 'alg')
    // A header claiming RS256 over a key of another type: the key must fit the pinned algorithm.
    await expectReason(
      verifyIdToken(await sign(rsa, goodClaims(), { kid: 'ec' }), expectations),
      'alg',
    )
    const [header, , signature] = (await sign(rsa, goodClaims())).split('.') as [
      string,
      string,
      string,
    ]
    const forgedPayload = base64UrlEncodeText(JSON.stringify(goodClaims({ sub: 'admin' })))
    await expectReason(
      verifyIdToken(`${header}.${forgedPayload}.${signature}`, expectations),
      'signature',
    )
    await expectReason(verifyIdToken('not.a.jwt', expectations), 'malformed')
    await expectReason(verifyIdToken(42, expectations), 'malformed')
  })

  it('refetches the key set for an unknown kid (rotation), then not again for 30 s', async () => {
    const old = await signer('RS256', 'k1')
    const rotated = await signer('RS256', 'k2')
    let clock = now.getTime()
    const { set, served } = keySet([old.jwk], { now: () => new Date(clock) })
    const expectations = {
      issuer,
      clientId,
      algorithms: ['RS256'] as VerificationAlgorithm[],
      keys: set,
      crypto: backend,
      now,
    }
    await verifyIdToken(await sign(old, goodClaims()), expectations)
    served.keys = [rotated.jwk]
    await expect(
      verifyIdToken(await sign(rotated, goodClaims()), expectations),
    ).resolves.toBeDefined()
    expect(served.fetches).toBe(2)
    const stranger = await signer('RS256', 'k3')
    clock += 29_999
    await expectReason(verifyIdToken(await sign(stranger, goodClaims()), expectations), 'jwks')
    expect(served.fetches).toBe(2)
    clock += 1
    await expectReason(verifyIdToken(await sign(stranger, goodClaims()), expectations), 'jwks')
    await expectReason(verifyIdToken(await sign(stranger, goodClaims()), expectations), 'jwks')
    expect(served.fetches).toBe(3)
  })

  it('without a kid, tries the signing keys of the right type', async () => {
    const a = await signer('RS256', 'a')
    const b = await signer('RS256', 'b')
    const { set } = keySet([a.jwk, b.jwk])
    const token = await sign(b, goodClaims(), { kid: undefined })
    await expect(
      verifyIdToken(token, {
        issuer,
        clientId,
        algorithms: ['RS256'],
        keys: set,
        crypto: backend,
        now,
      }),
    ).resolves.toMatchObject({ sub: 'user-1' })
  })

  it('reports a key set that cannot be fetched or read as jwks, and fetches again next time', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set, served } = keySet([rsa.jwk])
    const expectations = {
      issuer,
      clientId,
      algorithms: ['RS256'] as VerificationAlgorithm[],
      keys: set,
      crypto: backend,
      now,
    }
    const token = await sign(rsa, goodClaims())
    served.status = 503
    await expectReason(verifyIdToken(token, expectations), 'jwks')
    served.status = 200
    await expect(verifyIdToken(token, expectations)).resolves.toBeDefined()
    expect(served.fetches).toBe(2)
  })
})

describe('idTokenAlgorithms', () => {
  it('keeps the advertised asymmetric algorithms, never none or HMAC, and defaults to RS256', () => {
    expect(idTokenAlgorithms(['RS256', 'ES384', 'HS256', 'none', 'EdDSA'])).toEqual([
      'RS256',
      'ES384',
    ])
    expect(idTokenAlgorithms(undefined)).toEqual(['RS256'])
    expect(idTokenAlgorithms('RS256')).toEqual(['RS256'])
    expect(idTokenAlgorithms(['HS256'])).toEqual([])
  })
})

describe('publicJwkToSpki', () => {
  it('gives the SPKI WebCrypto exports, for RSA and each curve', async () => {
    for (const [algorithm, curve] of [
      ['RS256'],
      ['ES256', 'P-256'],
      ['ES384', 'P-384'],
      ['ES512', 'P-521'],
    ] as const) {
      const pair = await generateTestKeyPair(algorithm, curve)
      expect(publicJwkToSpki(pair.publicJwk as Jwk)).toEqual(pair.spki)
    }
  })

  it('writes long-form DER lengths and minimal integers (RSA 4096, a modulus with leading zeros)', async () => {
    const { publicKey } = (await crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        hash: 'SHA-256',
        modulusLength: 4096,
        publicExponent: Uint8Array.of(1, 0, 1),
      },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))
    const jwk = (await crypto.subtle.exportKey('jwk', publicKey)) as Jwk
    expect(publicJwkToSpki(jwk)).toEqual(spki)
    // Two zero octets before the modulus (base64url 'AAA' + the rest re-aligned): same key.
    const modulus = base64UrlDecode(jwk.n as string) as Uint8Array
    const padded = base64UrlEncode(Uint8Array.from([0, 0, ...modulus]))
    expect(publicJwkToSpki({ ...jwk, n: padded })).toEqual(spki)
  })

  it('refuses keys it cannot turn into a verification key', () => {
    for (const jwk of [
      { kty: 'oct', k: 'AAAA' },
      { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' },
      { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' },
      { kty: 'EC', crv: 'secp256k1', x: 'A'.repeat(43), y: 'A'.repeat(43) },
      { kty: 'RSA', n: 'AQAB', e: 'AQAB' },
      { kty: 'RSA', e: 'AQAB' },
      // Names of Object.prototype's members are no curves either.
      ...['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((crv) => ({
        kty: 'EC',
        crv,
        x: 'A'.repeat(43),
        y: 'A'.repeat(43),
      })),
    ]) {
      expect(publicJwkToSpki(jwk as Jwk)).toBeUndefined()
    }
  })
})
