/**
 * The checks on what a caller passes to `Client` (DESIGN §12, issue 10 defect 6): unknown
 * options on own members only, reported as "unknown attribute" with the valid names;
 * `timeoutMs` an integer in 1…2 147 483 647; `signal` an `AbortSignal` on every operation, a
 * typed error otherwise; a crypto backend written for another contract version refused.
 */
import { describe, expect, it } from 'vitest'
import { Client } from '../src/index.js'
import {
  baseUrl,
  configurationError,
  configurationRejection,
  fakeServer,
  json,
  smartConfiguration,
} from './support.js'

const backend = {
  name: 'custom',
  importSigner: async () => ({ alg: 'ES384' as const, sign: async () => new Uint8Array(96) }),
  verifySignature: async () => true,
}

describe('Client options', () => {
  it.each([
    ['constructor', { constructor: 'x' }],
    ['__proto__', JSON.parse('{"__proto__": {"protocol": "udap"}}')],
    ['hasOwnProperty', { hasOwnProperty: () => true }],
    ['protcol', { protcol: 'udap' }],
  ])(
    'refuses the own member %s as an unknown attribute, listing the valid ones',
    (name, options) => {
      const error = configurationError(() => new Client({ baseUrl }, options as never))
      expect(error.invalidAttribute).toBe(name)
      expect(error.message).toContain('unknown attribute')
      expect(error.message).toContain('valid attributes: protocol, clientType, crypto, fetch')
    },
  )

  it('reads no inherited option', () => {
    const options = Object.create({ protocol: 'udap' })
    expect(new Client({ baseUrl }, options).protocol).toBe('smart')
  })

  it.each([1, 10_000, 2_147_483_647])('accepts timeoutMs %d', (timeoutMs) => {
    expect(() => new Client({ baseUrl }, { timeoutMs })).not.toThrow()
  })

  it.each([0, -1, 0.5, 1500.5, 2_147_483_648, 3e9, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses timeoutMs %d (setTimeout would fire at once)',
    (timeoutMs) => {
      const error = configurationError(() => new Client({ baseUrl }, { timeoutMs }))
      expect(error.invalidAttribute).toBe('timeoutMs')
      expect(error.message).toContain('an integer from 1 to 2147483647')
    },
  )

  it('accepts a backend of this contract version or one that states none; refuses another when it is first used', async () => {
    expect(() => new Client({ baseUrl }, { crypto: backend as never })).not.toThrow()
    const client = new Client(
      { baseUrl, clientId: 'svc', tokenEndpoint: `${baseUrl}/token`, privateKey: 'pem', kid: 'k1' },
      { crypto: { ...backend, specificationVersion: 2 } as never },
    )
    const error = await configurationRejection(
      client.requestBackendToken({ scopes: ['system/*.rs'] }),
    )
    expect(error.invalidAttribute).toBe('crypto')
    expect(error.message).toContain('specification 2')
  })
})

describe('signal on every operation', () => {
  const notSignals = [{}, 'abort', 1, { aborted: false, addEventListener() {} }]

  it.each(notSignals)(
    'refuses signal %j with a ConfigurationError and sends nothing',
    async (signal) => {
      const server = fakeServer({})
      const smart = new Client(
        { baseUrl, clientId: 'app', redirectUri: 'https://app.example.org/cb', scopes: ['openid'] },
        { fetch: server.fetch },
      )
      const udap = new Client({ baseUrl }, { protocol: 'udap', fetch: server.fetch })
      const trust = { trustedAnchors: ['anchor'], crls: [] }
      const operations = [
        () => smart.serverMetadata({ signal } as never),
        () => smart.authorizationUrl({ signal } as never),
        () => smart.requestAccessToken({ code: 'c', codeVerifier: 'v', signal } as never),
        () => smart.refreshToken({ refreshToken: 'r', signal } as never),
        () => smart.requestBackendToken({ signal } as never),
        () => smart.registerClient({}, { signal } as never),
        () => udap.serverMetadata({ ...trust, signal } as never),
        () => udap.requestBackendToken({ ...trust, signal } as never),
        () =>
          udap.registerClient({}, { ...trust, clientUri: 'https://c.example', signal } as never),
        () =>
          udap.cancelRegistration({}, {
            ...trust,
            clientUri: 'https://c.example',
            signal,
          } as never),
      ]
      for (const operation of operations) {
        expect((await configurationRejection(operation())).invalidAttribute).toBe('signal')
      }
      expect(server.requests).toHaveLength(0)
    },
  )

  it('accepts a real AbortSignal', async () => {
    const server = fakeServer({
      [`${baseUrl}/.well-known/smart-configuration`]: () => json(smartConfiguration),
    })
    const client = new Client({ baseUrl }, { fetch: server.fetch })
    const metadata = await client.serverMetadata({ signal: new AbortController().signal })
    expect(metadata.tokenEndpoint).toBe(smartConfiguration.token_endpoint)
  })

  it('reads operation options as own members: an inherited code is not used', async () => {
    const client = new Client({
      baseUrl,
      clientId: 'app',
      redirectUri: 'https://app.example.org/cb',
    })
    const options = Object.create({ code: 'inherited-code', codeVerifier: 'inherited-verifier' })
    expect(
      (await configurationRejection(client.requestAccessToken(options))).invalidAttribute,
    ).toBe('code')
  })
})

describe('durations in seconds', () => {
  const client = () => new Client({ baseUrl, clientId: 'app' }, { fetch: fakeServer({}).fetch })

  it.each([
    [-1, -1],
    [Number.NaN, Number.NaN],
    [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
    ['60', 'string'],
    [null, 'object'],
  ])('validateIdToken refuses maxAgeSeconds %s, reporting %s', async (value, reported) => {
    const error = await configurationRejection(
      client().validateIdToken('a.b.c', { maxAgeSeconds: value as never }),
    )
    expect(error.invalidAttribute).toBe('maxAgeSeconds')
    expect(error.invalidValue).toBe(reported)
    expect(error.message).toContain('maxAgeSeconds must be a number of seconds')
  })

  it.each([
    [-1, -1],
    ['60', 'string'],
  ])('backendTokens refuses minValiditySeconds %s, reporting %s', (value, reported) => {
    const error = configurationError(() =>
      client().backendTokens({ minValiditySeconds: value as never }),
    )
    expect(error.invalidAttribute).toBe('minValiditySeconds')
    expect(error.invalidValue).toBe(reported)
    expect(error.message).toContain('minValiditySeconds must be a number of seconds')
  })
})
