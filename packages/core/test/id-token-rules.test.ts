/**
 * ID token validation (OIDC Core §3.1.3.7, DESIGN §8) at the edges of each rule: the message of
 * every refusal, the exact limits of the leeway and of `max_age`, an `azp` or a subject that does
 * match, which keys may verify which algorithm, and a crypto backend that fails. Written for the
 * survivors of `pnpm test:mutation` in `src/oidc/verify-id-token.ts` (docs/testing.md); the main
 * cases are in id-token.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { base64UrlEncodeText, type CryptoBackend, HttpError, IdTokenError } from '../src/index.js'
import { lazyImport } from '../src/loading/lazy-import.js'
import { idTokenAlgorithms, verifyIdToken } from '../src/oidc.js'
import {
  backend,
  clientId,
  expectationsFor,
  goodClaims,
  issuer,
  keySet,
  nowSeconds,
  sign,
  signer,
} from './support/id-token-fixtures.js'

/** The reason and message an ID token is refused with. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(IdTokenError)
  const { reason, message } = error as IdTokenError
  return { reason, message }
}

it('idTokenAlgorithms keeps every asymmetric JWS algorithm the server advertises', () => {
  // RSA PKCS#1 v1.5, RSA-PSS and ECDSA, each with SHA-256, -384 and -512 (RFC 7518 §3.1).
  const asymmetric = ['RS', 'PS', 'ES'].flatMap((family) =>
    ['256', '384', '512'].map((bits) => `${family}${bits}`),
  )
  expect(idTokenAlgorithms(asymmetric)).toEqual(asymmetric)
})

describe('verifyIdToken says which rule a token broke', () => {
  it('the claims, each in its own words', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const cases: [Record<string, unknown>, string, string, object?][] = [
      [{ iss: 'https://evil.example' }, 'iss', `the ID token issuer is not ${issuer}`],
      [{ sub: undefined }, 'malformed', 'the ID token has no sub'],
      [{ sub: '' }, 'malformed', 'the ID token has no sub'],
      [{ aud: 'other' }, 'aud', 'the ID token audience does not include this client'],
      [{ azp: 'other' }, 'azp', 'the ID token azp is not this client'],
      [{ exp: nowSeconds - 60 }, 'exp', 'the ID token has expired (or has no numeric exp)'],
      [
        { iat: nowSeconds + 61 },
        'iat',
        'the ID token was issued in the future (or has no numeric iat)',
      ],
      [{ nonce: 'n-2' }, 'nonce', 'the ID token nonce is not the one sent', { nonce: 'n-1' }],
      [{}, 'sub', 'the refreshed ID token is for another subject', { subject: 'user-2' }],
      [
        { auth_time: nowSeconds - 3661 },
        'auth_time',
        'the authentication is older than maxAgeSeconds',
        { maxAgeSeconds: 3600 },
      ],
    ]
    for (const [claims, reason, message, extra] of cases) {
      const token = await sign(rsa, goodClaims(claims))
      expect(await refusal(verifyIdToken(token, expectationsFor(set, extra))), message).toEqual({
        reason,
        message,
      })
    }
  })

  it('the structure and the signature', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const expected = expectationsFor(set)
    const header = base64UrlEncodeText(JSON.stringify({ alg: 'RS256', kid: 'rsa' }))
    const claims = base64UrlEncodeText(JSON.stringify(goodClaims()))
    const malformed = 'the ID token is not a compact JWS of JSON objects'
    expect(await refusal(verifyIdToken(`${header}.bm90IGpzb24.AAAA`, expected))).toEqual({
      reason: 'malformed',
      message: malformed,
    })
    expect(await refusal(verifyIdToken('not.a.jwt', expected))).toEqual({
      reason: 'malformed',
      message: malformed,
    })
    const none = base64UrlEncodeText(JSON.stringify({ alg: 'none' }))
    expect(await refusal(verifyIdToken(`${none}.${claims}.`, expected))).toEqual({
      reason: 'alg',
      message: 'the ID token is unsigned ("alg":"none")',
    })
    expect(
      await refusal(verifyIdToken(await sign(rsa, goodClaims(), { crit: ['x'] }), expected)),
    ).toEqual({ reason: 'malformed', message: 'the ID token header has "crit" extensions' })
    const [signedHeader, , signature] = (await sign(rsa, goodClaims())).split('.')
    const forged = base64UrlEncodeText(JSON.stringify(goodClaims({ sub: 'admin' })))
    expect(
      await refusal(verifyIdToken(`${signedHeader}.${forged}.${signature}`, expected)),
    ).toEqual({ reason: 'signature', message: 'the ID token signature does not verify' })
  })

  it('an algorithm not allowed, shown short, with the allowed ones', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const cases: [Record<string, unknown>, string[], string][] = [
      [{ alg: 'HS256' }, ['RS256'], '"HS256" is not allowed (allowed: RS256)'],
      [{ alg: undefined }, ['RS256', 'ES256'], 'missing is not allowed (allowed: RS256, ES256)'],
      [{ alg: 7 }, ['RS256'], 'missing is not allowed (allowed: RS256)'],
      [
        { alg: 'RS256'.repeat(10) },
        ['RS256'],
        '"RS256RS256RS256R" is not allowed (allowed: RS256)',
      ],
      [{}, [], '"RS256" is not allowed (allowed: none)'],
    ]
    for (const [header, algorithms, message] of cases) {
      const token = await sign(rsa, goodClaims(), header)
      const expected = expectationsFor(set, { algorithms: algorithms as never })
      expect(await refusal(verifyIdToken(token, expected))).toEqual({
        reason: 'alg',
        message: `the ID token algorithm ${message}`,
      })
    }
  })
})

describe('verifyIdToken accepts a token at the edge of each rule', () => {
  it('issued 60 s ahead of the clock; an authentication exactly max_age + 60 s old', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const maxAge = { maxAgeSeconds: 3600 }
    for (const claims of [
      { iat: nowSeconds + 60, auth_time: nowSeconds },
      { auth_time: nowSeconds - 3660 },
      { auth_time: nowSeconds - 10 },
    ]) {
      const token = await sign(rsa, goodClaims(claims))
      await expect(verifyIdToken(token, expectationsFor(set, maxAge))).resolves.toMatchObject(
        claims,
      )
    }
  })

  it('an azp naming this client, with one audience or several; the same subject on refresh', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    for (const claims of [
      { aud: [clientId, 'other'], azp: clientId },
      { aud: clientId, azp: clientId },
    ]) {
      const token = await sign(rsa, goodClaims(claims))
      await expect(verifyIdToken(token, expectationsFor(set))).resolves.toMatchObject(claims)
    }
    const token = await sign(rsa, goodClaims())
    await expect(
      verifyIdToken(token, expectationsFor(set, { subject: 'user-1' })),
    ).resolves.toMatchObject({ sub: 'user-1' })
  })

  it('a kid that is not a string counts as no kid', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const token = await sign(rsa, goodClaims(), { kid: 7 })
    await expect(verifyIdToken(token, expectationsFor(set))).resolves.toMatchObject({
      sub: 'user-1',
    })
  })
})

describe('verifyIdToken verifies only with a key that fits the algorithm', () => {
  it('ES512 with a P-521 key', async () => {
    const es512 = await signer('ES512', 'p521', 'P-521')
    const { set } = keySet([es512.jwk])
    const token = await sign(es512, goodClaims())
    await expect(
      verifyIdToken(token, expectationsFor(set, { algorithms: ['ES512'] })),
    ).resolves.toMatchObject({ sub: 'user-1' })
  })

  it('no key pinned to another algorithm, of another type, or on another curve', async () => {
    const rsa = await signer('RS256', 'rsa')
    const p384 = await signer('ES384', 'p384', 'P-384')
    // WebCrypto exports RSA keys pinned to their algorithm: unpinned, only their type can refuse.
    const { alg: _pinned, ...unpinned } = rsa.jwk
    const { set } = keySet([
      { ...unpinned, kid: 'pinned', alg: 'RS384' },
      { ...unpinned, kid: 'rsa' },
      { ...unpinned, kid: 'rsa-with-curve', crv: 'P-256' },
      { ...p384.jwk, kid: 'p384' },
    ])
    const cases: [string, string][] = [
      ['pinned', 'RS256'],
      ['rsa', 'ES256'],
      ['rsa-with-curve', 'ES256'],
      ['p384', 'ES256'],
    ]
    for (const [kid, algorithm] of cases) {
      // Signed by a key of the type the header names: only the key choice can refuse it.
      const by = algorithm === 'RS256' ? rsa : await signer('ES256', kid, 'P-256')
      const token = await sign(by, goodClaims(), { kid })
      const expected = expectationsFor(set, { algorithms: [algorithm as 'RS256'] })
      expect(await refusal(verifyIdToken(token, expected)), kid).toEqual({
        reason: 'alg',
        message: `no key in the server's key set can verify ${algorithm}`,
      })
    }
  })

  it('a key that is no verification key (an RSA key without modulus) never reaches the backend', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { n: _modulus, ...withoutModulus } = rsa.jwk
    const { set } = keySet([{ ...withoutModulus, kid: 'broken' }, rsa.jwk])
    const keysChecked: unknown[] = []
    const recording = {
      verifySignature: (check: { publicKeySpki: unknown }) => {
        keysChecked.push(check.publicKeySpki)
        return backend.verifySignature(check as never)
      },
    } as unknown as CryptoBackend
    const token = await sign(rsa, goodClaims(), { kid: undefined })
    await expect(
      verifyIdToken(token, expectationsFor(set, { crypto: recording })),
    ).resolves.toMatchObject({ sub: 'user-1' })
    expect(keysChecked).toEqual([expect.any(Uint8Array)])
  })

  it('a backend whose code cannot load gives no verdict: its HttpError reaches the caller', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const loadVerifier = lazyImport<{ verify: CryptoBackend['verifySignature'] }>(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    )
    const unloadable = {
      verifySignature: async (check: never) => (await loadVerifier()).verify(check),
    } as unknown as CryptoBackend
    const token = await sign(rsa, goodClaims())
    const error = await verifyIdToken(token, expectationsFor(set, { crypto: unloadable })).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ reason: 'network' })
  })

  it('a backend that fails to check the signature verifies nothing', async () => {
    const rsa = await signer('RS256', 'rsa')
    const { set } = keySet([rsa.jwk])
    const failing = {
      verifySignature: () => Promise.reject(new Error('backend down')),
    } as unknown as CryptoBackend
    const token = await sign(rsa, goodClaims())
    expect(await refusal(verifyIdToken(token, expectationsFor(set, { crypto: failing })))).toEqual({
      reason: 'signature',
      message: 'the ID token signature does not verify',
    })
  })
})
