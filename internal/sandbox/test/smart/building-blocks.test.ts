import { createPrivateKey, createPublicKey, type JsonWebKey, sign, verify } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { CookieJar } from '../../src/http/cookie-jar.js'
import { recordRequest } from '../../src/http/recorded-request.js'
import { generateClientKeys } from '../../src/index.js'
import {
  smartAssertionProblem,
  type VerifiedAssertion,
} from '../../src/smart/client-assertion-rules.js'
import { SandboxStore } from '../../src/smart/memory-adapter.js'
import { smartClientProblems } from '../../src/smart/sandbox-client.js'
import { ConfigurationErrorForTests } from './support/imports.js'

describe('CookieJar', () => {
  const authorize = new URL('http://127.0.0.1:1/auth')

  it('sends cookies only to paths under the cookie path', () => {
    const jar = new CookieJar()
    jar.store(
      ['_interaction=abc; path=/interaction/uid-1; httponly', '_session=s1; path=/'],
      authorize,
    )

    expect(jar.headerFor(new URL('http://127.0.0.1:1/interaction/uid-1'))).toBe(
      '_interaction=abc; _session=s1',
    )
    expect(jar.headerFor(new URL('http://127.0.0.1:1/interaction/uid-10'))).toBe('_session=s1')
    expect(jar.headerFor(new URL('http://127.0.0.1:1/auth/uid-1'))).toBe('_session=s1')
  })

  it('forgets cookies deleted with an expiry in the past or Max-Age=0', () => {
    const jar = new CookieJar()
    jar.store(['a=1; path=/', 'b=2; path=/'], authorize)
    jar.store(
      ['a=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT', 'b=; path=/; max-age=0'],
      authorize,
    )

    expect(jar.headerFor(authorize)).toBeUndefined()
  })
})

describe('smartAssertionProblem', () => {
  const settings = {
    tokenEndpoint: 'http://127.0.0.1:1/token',
    clockToleranceSeconds: 5,
    nowSeconds: 1_000,
  }
  const valid: VerifiedAssertion = {
    claims: { iss: 'app', sub: 'app', aud: 'http://127.0.0.1:1/token', exp: 1_200, jti: 'j' },
    header: { alg: 'ES384', typ: 'JWT', kid: 'k1' },
    clientId: 'app',
    jwksUri: 'http://127.0.0.1:2/jwks',
    route: 'token',
  }

  it('accepts a SMART assertion', () => {
    expect(smartAssertionProblem(valid, settings)).toBeUndefined()
  })

  it.each([
    ['typ', { ...valid, header: { alg: 'ES384', kid: 'k1' } }, /typ/],
    ['kid', { ...valid, header: { alg: 'ES384', typ: 'JWT' } }, /kid/],
    ['jku', { ...valid, header: { ...valid.header, jku: 'http://127.0.0.1:3/jwks' } }, /jku/],
    ['sub', { ...valid, claims: { ...valid.claims, sub: 'other' } }, /sub/],
    ['aud', { ...valid, claims: { ...valid.claims, aud: 'http://127.0.0.1:1' } }, /aud/],
    ['exp', { ...valid, claims: { ...valid.claims, exp: 1_306 } }, /five minutes/],
  ])('names a broken %s rule', (_rule, assertion, message) => {
    expect(smartAssertionProblem(assertion, settings)).toMatch(message)
  })

  it('leaves aud to the provider outside the token endpoint', () => {
    const introspection = {
      ...valid,
      route: 'introspection',
      claims: { ...valid.claims, aud: 'http://127.0.0.1:1' },
    }

    expect(smartAssertionProblem(introspection, settings)).toBeUndefined()
  })
})

describe('smartClientProblems', () => {
  it('accepts the three SMART client types', () => {
    expect(
      smartClientProblems({
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
      }),
    ).toEqual([])
    expect(
      smartClientProblems({
        token_endpoint_auth_method: 'private_key_jwt',
        grant_types: ['client_credentials'],
        jwks: { keys: [{ kty: 'EC', kid: 'k' }] },
      }),
    ).toEqual([])
  })

  it('refuses client_credentials without private_key_jwt and keys without kid', () => {
    expect(
      smartClientProblems({
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
      }),
    ).toEqual(['the client_credentials grant needs token_endpoint_auth_method private_key_jwt'])
    expect(
      smartClientProblems({
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ kty: 'EC' }] },
      }),
    ).toEqual(['every key in jwks needs a kid'])
    expect(smartClientProblems({ token_endpoint_auth_method: 'client_secret_jwt' })).toHaveLength(1)
  })
})

describe('SandboxStore', () => {
  it('revokes every entry of a grant and nothing else', async () => {
    const store = new SandboxStore()
    const accessTokens = store.adapterFactory('AccessToken')
    const refreshTokens = store.adapterFactory('RefreshToken')
    await accessTokens.upsert('at-1', { grantId: 'g1' }, 60)
    await refreshTokens.upsert('rt-1', { grantId: 'g1' }, 60)
    await accessTokens.upsert('at-2', { grantId: 'g2' }, 60)

    await accessTokens.revokeByGrantId('g1')

    expect(await accessTokens.find('at-1')).toBeUndefined()
    expect(await refreshTokens.find('rt-1')).toBeUndefined()
    expect(await accessTokens.find('at-2')).toEqual({ grantId: 'g2' })
  })

  it('forgets expired entries and marks consumed ones', async () => {
    const store = new SandboxStore()
    const codes = store.adapterFactory('AuthorizationCode')
    await codes.upsert('expired', {}, -1)
    await codes.upsert('live', {}, 60)
    await codes.consume('live')

    expect(await codes.find('expired')).toBeUndefined()
    expect((await codes.find('live'))?.consumed).toEqual(expect.any(Number))
  })

  it('finds sessions by uid and keeps models apart', async () => {
    const store = new SandboxStore()
    await store.adapterFactory('Session').upsert('session-id', { uid: 'uid-1' })

    expect(await store.adapterFactory('Session').findByUid('uid-1')).toEqual({ uid: 'uid-1' })
    expect(await store.adapterFactory('Grant').find('session-id')).toBeUndefined()
  })
})

describe('recordRequest', () => {
  it('parses form and JSON bodies and joins repeated headers', () => {
    const form = recordRequest({
      method: 'POST',
      url: new URL('http://127.0.0.1:1/token?x=1'),
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        'x-many': ['a', 'b'],
      },
      body: Buffer.from('grant_type=client_credentials&scope=system%2F*.rs'),
    })
    const json = recordRequest({
      method: 'POST',
      url: new URL('http://127.0.0.1:1/reg'),
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{not json'),
    })

    expect(form).toMatchObject({
      path: '/token',
      query: { x: '1' },
      headers: { 'x-many': 'a, b' },
      form: { grant_type: 'client_credentials', scope: 'system/*.rs' },
    })
    expect(json.json).toBeNull()
    expect(json.body).toBe('{not json')
  })
})

describe('generateClientKeys', () => {
  it.each(['RS384', 'ES384'] as const)(
    'makes a usable %s key pair with an RFC 7638 kid',
    async (algorithm) => {
      const keys = await generateClientKeys(algorithm)

      expect(keys.publicJwk).toMatchObject({ alg: algorithm, kid: keys.kid, use: 'sig' })
      expect(keys.publicJwk.d).toBeUndefined()
      expect(keys.kid).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const data = Buffer.from('signing input')
      const options = algorithm === 'ES384' ? { dsaEncoding: 'ieee-p1363' as const } : {}
      const signature = sign('sha384', data, {
        key: createPrivateKey(keys.privateKeyPem),
        ...options,
      })
      const publicKey = createPublicKey({ key: keys.publicJwk as JsonWebKey, format: 'jwk' })
      expect(verify('sha384', data, { key: publicKey, ...options }, signature)).toBe(true)
    },
  )

  it('gives the documented RFC 7638 thumbprint', async () => {
    const keys = await generateClientKeys('ES384')
    const { kty, crv, x, y } = keys.publicJwk
    const { createHash } = await import('node:crypto')
    const expected = createHash('sha256')
      .update(JSON.stringify({ crv, kty, x, y }))
      .digest('base64url')

    expect(keys.kid).toBe(expected)
  })

  it('refuses other algorithms', async () => {
    await expect(generateClientKeys('RS256' as never)).rejects.toThrow(ConfigurationErrorForTests)
  })
})
