import { ConfigurationError, CryptoError, type JwsSigner } from '@fhir-auth/core'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { createClientAssertion } from '../src/index.js'
import { createTestKey, rejectionOf, type TestKey } from './test-support.js'

const tokenEndpoint = 'https://auth.example.org/token?tenant=a'
const now = () => new Date('2030-01-01T00:00:00Z')
const nowSeconds = 1893456000

let keys: Record<'RS384' | 'ES384', TestKey>

beforeAll(async () => {
  keys = { RS384: await createTestKey('RS384'), ES384: await createTestKey('ES384') }
})

describe('createClientAssertion', () => {
  it.each(['RS384', 'ES384'] as const)(
    'makes a %s assertion that verifies with the public key',
    async (alg) => {
      const { signer, publicKey } = keys[alg]
      const assertion = await createClientAssertion({
        clientId: 'client-1',
        tokenEndpoint,
        signer,
        jwksUri: 'https://app.example.org/jwks.json',
        now,
      })
      expect(decodeProtectedHeader(assertion)).toEqual({
        alg,
        typ: 'JWT',
        kid: 'test-key-1',
        jku: 'https://app.example.org/jwks.json',
      })
      const { payload } = await jwtVerify(assertion, publicKey, {
        algorithms: [alg],
        issuer: 'client-1',
        subject: 'client-1',
        audience: tokenEndpoint,
        currentDate: now(),
      })
      expect(payload).toEqual({
        iss: 'client-1',
        sub: 'client-1',
        aud: tokenEndpoint,
        iat: nowSeconds,
        exp: nowSeconds + 300,
        jti: expect.stringMatching(/^[A-Za-z0-9_-]{22,}$/),
      })
    },
  )

  it('leaves out jku without a jwksUri', async () => {
    const assertion = await createClientAssertion({
      clientId: 'c',
      tokenEndpoint,
      signer: keys.RS384.signer,
    })
    expect(decodeProtectedHeader(assertion)).toEqual({
      alg: 'RS384',
      typ: 'JWT',
      kid: 'test-key-1',
    })
  })

  it('uses a fresh jti every time', async () => {
    const options = { clientId: 'c', tokenEndpoint, signer: keys.ES384.signer, now }
    const assertions = await Promise.all(
      Array.from({ length: 10 }, () => createClientAssertion(options)),
    )
    const ids = assertions.map(
      (assertion) =>
        JSON.parse(atob(assertion.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).jti,
    )
    expect(new Set(ids).size).toBe(10)
  })

  it.each([
    [60, 60],
    [300, 300],
    [3600, 300],
  ])('lifetime %i gives exp = iat + %i', async (lifetimeSeconds, expected) => {
    const assertion = await createClientAssertion({
      clientId: 'c',
      tokenEndpoint,
      signer: keys.RS384.signer,
      now,
      lifetimeSeconds,
    })
    const { payload } = await jwtVerify(assertion, keys.RS384.publicKey, { currentDate: now() })
    expect(payload.exp).toBe(nowSeconds + expected)
  })

  it.each([0, -5, Number.NaN, '300' as unknown as number])(
    'refuses lifetime %s',
    async (lifetimeSeconds) => {
      const error = await rejectionOf(() =>
        createClientAssertion({
          clientId: 'c',
          tokenEndpoint,
          signer: keys.RS384.signer,
          lifetimeSeconds,
        }),
      )
      expect(error).toMatchObject({
        invalidAttribute: 'lifetimeSeconds',
        message: expect.stringContaining('lifetimeSeconds must be a positive number'),
      })
    },
  )

  it('requires a kid', async () => {
    const signer: JwsSigner = { ...keys.RS384.signer, kid: undefined }
    const error = await rejectionOf(() =>
      createClientAssertion({ clientId: 'c', tokenEndpoint, signer }),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('kid')
  })

  it.each(['RS256', 'ES256'] as const)(
    'refuses a %s signer (SMART allows RS384 and ES384)',
    async (alg) => {
      const signer: JwsSigner = { alg, kid: 'k', sign: async () => new Uint8Array(64) }
      const error = await rejectionOf(() =>
        createClientAssertion({ clientId: 'c', tokenEndpoint, signer }),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('jwtAlgorithm')
      expect((error as ConfigurationError).validValues).toEqual(['RS384', 'ES384'])
      expect((error as ConfigurationError).message).toContain(
        `SMART client assertions must be signed with RS384 or ES384, not ${alg}`,
      )
    },
  )

  it('refuses something that is not a signer', async () => {
    const error = await rejectionOf(() =>
      createClientAssertion({
        clientId: 'c',
        tokenEndpoint,
        signer: 'PEM' as unknown as JwsSigner,
      }),
    )
    expect(error).toMatchObject({
      invalidAttribute: 'signer',
      message: expect.stringContaining('signer must be a JwsSigner'),
    })
  })

  it.each([
    ['clientId', { clientId: '' }],
    ['tokenEndpoint', { tokenEndpoint: undefined }],
    ['jwksUri', { jwksUri: '' }],
  ])('names %s when it is unusable', async (attribute, change) => {
    const error = await rejectionOf(() =>
      createClientAssertion({
        clientId: 'c',
        tokenEndpoint,
        signer: keys.RS384.signer,
        ...change,
      } as never),
    )
    expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
  })

  it('reports a failing signer as a CryptoError without its message', async () => {
    const signer: JwsSigner = {
      alg: 'ES384',
      kid: 'k',
      sign: async () => {
        throw new Error('HSM said: key material 0xSECRET')
      },
    }
    const error = await rejectionOf(() =>
      createClientAssertion({ clientId: 'c', tokenEndpoint, signer }),
    )
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as Error).message).not.toContain('0xSECRET')
  })
})
