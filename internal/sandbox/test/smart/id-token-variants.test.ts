/**
 * The hostile ID token variants: each one is checked here with jose, independently of the
 * library, so the client's failure matrix rests on tokens that really break the rule named.
 */
import { createHmac } from 'node:crypto'
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  authorizeForCode,
  basicAuthentication,
  exchangeCode,
  type Fixture,
  startFixture,
  stringMember,
  symmetricClientId,
  symmetricClientSecret,
} from './support/fixture.js'

let fixture: Fixture
beforeAll(async () => {
  fixture = await startFixture()
})
afterEach(() => fixture.sandbox.setIdTokenVariant(undefined))
afterAll(() => fixture.sandbox.close())

async function idToken(): Promise<string> {
  const { sandbox } = fixture
  const { prepared, code } = await authorizeForCode(sandbox, {
    clientId: symmetricClientId,
    scope: 'openid fhirUser launch/patient patient/*.rs',
  })
  const reply = await exchangeCode(
    sandbox,
    prepared,
    code,
    basicAuthentication(symmetricClientId, symmetricClientSecret),
  )
  return stringMember(reply, 'id_token')
}

describe('ID token variants', () => {
  it('change exactly the claim they name and stay validly signed', async () => {
    const { sandbox } = fixture
    const keys = createRemoteJWKSet(new URL(sandbox.endpoints.jwks))
    const expectations: [
      Parameters<typeof sandbox.setIdTokenVariant>[0],
      (claims: Record<string, unknown>) => void,
    ][] = [
      ['wrong-aud', (c) => expect(c.aud).toBe('another-client')],
      ['wrong-iss', (c) => expect(c.iss).toBe('https://evil.example')],
      ['wrong-nonce', (c) => expect(c.nonce).toBe('not-the-nonce-that-was-sent')],
      [
        'azp-missing',
        (c) => expect([c.aud, c.azp]).toEqual([[symmetricClientId, 'another-client'], undefined]),
      ],
      ['azp-wrong', (c) => expect(c.azp).toBe('another-client')],
      ['expired', (c) => expect(Number(c.exp)).toBeLessThan(Date.now() / 1000)],
      ['iat-future', (c) => expect(Number(c.iat)).toBeGreaterThan(Date.now() / 1000 + 3000)],
    ]
    for (const [variant, check] of expectations) {
      sandbox.setIdTokenVariant(variant)
      const token = await idToken()
      const { payload } = await jwtVerify(token, keys, {
        currentDate: new Date(Number(decodeJwt(token).iat) * 1000),
      })
      check(payload)
    }
  })

  it('alg-none has no signature; hs256 is keyed by the client secret; bad-signature does not verify', async () => {
    const { sandbox } = fixture
    sandbox.setIdTokenVariant('alg-none')
    const none = await idToken()
    expect(decodeProtectedHeader(none).alg).toBe('none')
    expect(none.endsWith('.')).toBe(true)

    sandbox.setIdTokenVariant('hs256-client-secret')
    const hs = await idToken()
    const [header, claims, signature] = hs.split('.')
    expect(decodeProtectedHeader(hs).alg).toBe('HS256')
    expect(
      createHmac('sha256', symmetricClientSecret).update(`${header}.${claims}`).digest('base64url'),
    ).toBe(signature)

    sandbox.setIdTokenVariant('bad-signature')
    const keys = createRemoteJWKSet(new URL(sandbox.endpoints.jwks))
    await expect(jwtVerify(await idToken(), keys)).rejects.toThrow(/signature/)
  })

  it('unknown-kid is never in /jwks; rotated-key is, from the moment it is issued', async () => {
    const { sandbox } = fixture
    const kids = async () =>
      (
        (await (await fetch(sandbox.endpoints.jwks)).json()) as { keys: { kid: string }[] }
      ).keys.map((k) => k.kid)
    sandbox.setIdTokenVariant('unknown-kid')
    expect(decodeProtectedHeader(await idToken()).kid).toBe('sandbox-unknown')
    expect(await kids()).not.toContain('sandbox-unknown')
    expect((await kids()).some((kid) => kid.startsWith('sandbox-rotated'))).toBe(false)
    sandbox.setIdTokenVariant('rotated-key')
    const rotated = await idToken()
    expect(await kids()).toEqual(expect.arrayContaining(['sandbox-rs256', 'sandbox-rotated-1']))
    const keys = createRemoteJWKSet(new URL(sandbox.endpoints.jwks))
    await expect(jwtVerify(rotated, keys)).resolves.toBeDefined()
  })
})
