/**
 * The redaction rules one by one: every sensitive name, the names that must stay readable, the
 * depth cut, the JWT shape and the shortest secret replaced in text. Each case fails if its rule
 * is dropped (see docs/testing.md, mutation testing).
 */
import { describe, expect, it } from 'vitest'
import {
  isSensitiveName,
  looksLikeJwt,
  redactFields,
  redactSecrets,
  redactUrl,
} from '../src/index.js'

/** Every name whose value is a secret, in the spellings OAuth, SMART, UDAP and JWK use. */
const sensitiveNames = [
  // OAuth 2.0 tokens and codes (RFC 6749, RFC 7636), and camelCase option names.
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'codeVerifier',
  'client_secret',
  'clientSecret',
  'accessToken',
  'refreshToken',
  'idToken',
  'token',
  'state',
  // Client authentication and registration (RFC 7523, RFC 7591/7592, UDAP).
  'client_assertion',
  'assertion',
  'software_statement',
  'registration_access_token',
  'authorization',
  'password',
  'private_key',
  'privateKey',
  // The private members of an RSA or EC JWK (RFC 7518 §6.2.2, §6.3.2).
  'd',
  'p',
  'q',
  'dp',
  'dq',
  'qi',
]

describe('isSensitiveName', () => {
  it.each(sensitiveNames)('%s is sensitive, in any case', (name) => {
    expect(isSensitiveName(name)).toBe(true)
    expect(isSensitiveName(name.toUpperCase())).toBe(true)
  })

  it.each([
    'token_type',
    'expires_in',
    'scope',
    'client_id',
    'kid',
    'alg',
    // Public JWK members stay readable: they identify a key without revealing it.
    'kty',
    'n',
    'e',
    'x',
    'y',
    'crv',
    'codes',
    'tokens',
  ])('%s is not sensitive', (name) => {
    expect(isSensitiveName(name)).toBe(false)
  })
})

describe('redactFields', () => {
  it('replaces the value of every sensitive member', () => {
    const input = Object.fromEntries(sensitiveNames.map((name) => [name, `value of ${name}`]))
    const output = redactFields(input) as Record<string, unknown>
    expect(Object.keys(output)).toEqual(sensitiveNames)
    expect(new Set(Object.values(output))).toEqual(new Set(['[REDACTED]']))
  })

  it('keeps absent values absent: undefined and null say nothing', () => {
    expect(redactFields({ code: undefined, state: null, d: 'x' })).toEqual({
      code: undefined,
      state: null,
      d: '[REDACTED]',
    })
  })

  it('cuts objects and arrays below eight levels with […]', () => {
    const nest = (depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown =>
      depth === 0 ? leaf : wrap(nest(depth - 1, leaf, wrap))
    const objects = (depth: number) => nest(depth, 'leaf', (inner) => ({ inner }))
    const arrays = (depth: number) => nest(depth, 'leaf', (inner) => [inner])
    // Eight containers are copied; the ninth and anything below it is cut.
    expect(JSON.stringify(redactFields(objects(8)))).toContain('"leaf"')
    expect(JSON.stringify(redactFields(objects(9)))).not.toContain('leaf')
    expect(JSON.stringify(redactFields(objects(9)))).toContain('"[…]"')
    expect(JSON.stringify(redactFields(arrays(8)))).toContain('"leaf"')
    expect(JSON.stringify(redactFields(arrays(9)))).toBe(`${'['.repeat(8)}"[…]"${']'.repeat(8)}`)
  })
})

describe('looksLikeJwt', () => {
  it.each(['eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'])(
    'recognises %s',
    (value) => {
      expect(looksLikeJwt(value)).toBe(true)
    },
  )

  it.each([
    // Only a whole compact JWS is one: text around it is someone else's sentence.
    'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln is the token',
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0',
    'udap.discovery.started',
  ])('does not take %s for a JWT', (value) => {
    expect(looksLikeJwt(value)).toBe(false)
  })
})

describe('redactSecrets', () => {
  it('replaces secrets of four characters or more, and leaves shorter ones', () => {
    expect(redactSecrets('code abcd and abc', ['abcd', 'abc', undefined])).toBe(
      'code [REDACTED] and abc',
    )
    expect(redactSecrets('abc abc', ['abc'])).toBe('abc abc')
    expect(redactSecrets('x-secret-x x-secret-x', ['secret'])).toBe('x-[REDACTED]-x x-[REDACTED]-x')
  })
})

describe('redactUrl', () => {
  it('keeps a URL without query or fragment as origin and path', () => {
    expect(redactUrl('https://user:pw@app.example/cb')).toBe('https://app.example/cb')
    expect(redactUrl('https://app.example/cb?')).toBe('https://app.example/cb')
  })

  it('names each query parameter once, and marks a fragment without its value', () => {
    expect(redactUrl('https://app.example/cb?code=a&code=b#x')).toBe(
      'https://app.example/cb?code=[REDACTED]#[REDACTED]',
    )
  })
})
