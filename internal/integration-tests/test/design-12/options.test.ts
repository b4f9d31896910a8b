/**
 * DESIGN §12 "Options": timeoutMs is an integer in 1…2,147,483,647; an unknown config attribute
 * or option (own properties only: `constructor`, `__proto__` are unknown too) is a
 * ConfigurationError whose message says "unknown attribute", with the valid names.
 */
import { Client, ClientConfig, ConfigurationError, silentLogger } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { base, redirectUri, rejectionOf, sent, smartClient, smartServer } from './support/index.js'

const validConfig = { baseUrl: base, clientId: 'client-1', redirectUri, scopes: ['patient/*.rs'] }

function thrown(build: () => unknown): unknown {
  try {
    build()
  } catch (error) {
    return error
  }
  return undefined
}

function expectUnknownAttribute(error: unknown, name: string, someValidNames: readonly string[]) {
  expect(error).toBeInstanceOf(ConfigurationError)
  const configurationError = error as ConfigurationError
  expect(configurationError.message).toContain('unknown attribute')
  expect(configurationError.message).toContain(name)
  for (const valid of someValidNames) expect(configurationError.message).toContain(valid)
  expect(configurationError.invalidAttribute).toBe(name)
}

describe('DESIGN §12: timeoutMs is an integer in 1…2,147,483,647', () => {
  const refused: ReadonlyArray<unknown> = [
    0,
    -1,
    1.5,
    2_147_483_648,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '1000',
    10n,
    null,
  ]
  for (const value of refused) {
    it(`timeoutMs ${String(value)} (${typeof value}) → ConfigurationError on timeoutMs`, () => {
      const error = thrown(
        () => new Client(validConfig, { logger: silentLogger, timeoutMs: value as number }),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('timeoutMs')
    })
  }
  for (const value of [1, 2_147_483_647, 10_000]) {
    it(`timeoutMs ${value} is accepted`, () => {
      expect(new Client(validConfig, { logger: silentLogger, timeoutMs: value }).protocol).toBe(
        'smart',
      )
    })
  }
})

describe('DESIGN §12: unknown config attributes are ConfigurationError "unknown attribute"', () => {
  const cases: ReadonlyArray<[string, () => Record<string, unknown>, string]> = [
    ['a misspelt attribute', () => ({ ...validConfig, clientSecert: 'x' }), 'clientSecert'],
    ['snake_case attribute', () => ({ ...validConfig, client_id: 'x' }), 'client_id'],
    ['an own constructor', () => ({ ...validConfig, constructor: 'x' }), 'constructor'],
    [
      'an own __proto__ (JSON input)',
      () => JSON.parse(`{"baseUrl":"${base}","clientId":"c","__proto__":{"x":1}}`),
      '__proto__',
    ],
  ]
  for (const [label, input, name] of cases) {
    it(`new Client with ${label}`, () => {
      expectUnknownAttribute(
        thrown(() => new Client(input(), { logger: silentLogger })),
        name,
        ['baseUrl', 'clientId', 'allowInsecureLocalhost'],
      )
    })
    it(`new ClientConfig with ${label}`, () => {
      expectUnknownAttribute(
        thrown(() => new ClientConfig(input() as never)),
        name,
        ['baseUrl', 'tokenEndpoint'],
      )
    })
  }

  it('inherited properties are not read (own properties only)', () => {
    const input = Object.create({ somethingInherited: 1 })
    Object.assign(input, validConfig)
    expect(new ClientConfig(input).clientId).toBe('client-1')
  })

  it('an inherited config attribute is not taken as configuration', () => {
    const input = Object.create({ clientSecret: 'inherited-secret-123' })
    Object.assign(input, validConfig)
    expect(new ClientConfig(input).clientSecret).toBeUndefined()
  })
})

describe('DESIGN §12: unknown Client options are ConfigurationError "unknown attribute"', () => {
  const cases: ReadonlyArray<[string, () => Record<string, unknown>, string]> = [
    ['a misspelt option', () => ({ timeoutMS: 5 }), 'timeoutMS'],
    [
      'a per-operation option at Client level',
      () => ({ signal: new AbortController().signal }),
      'signal',
    ],
    ['an own constructor', () => ({ constructor: 1 }), 'constructor'],
    [
      'an own __proto__ (JSON input)',
      () => JSON.parse('{"__proto__":{"protocol":"udap"}}'),
      '__proto__',
    ],
  ]
  for (const [label, options, name] of cases) {
    it(`new Client with ${label}`, () => {
      expectUnknownAttribute(
        thrown(() => new Client(validConfig, { logger: silentLogger, ...options() })),
        name,
        ['protocol', 'clientType', 'timeoutMs', 'basicAuthEncoding', 'flow'],
      )
    })
  }

  it('basicAuthEncoding with another value → ConfigurationError on basicAuthEncoding with the valid values', () => {
    const error = thrown(
      () => new Client(validConfig, { logger: silentLogger, basicAuthEncoding: 'base64' as never }),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('basicAuthEncoding')
    expect((error as ConfigurationError).validValues).toEqual(['form-urlencoded', 'raw'])
  })
})

describe('operation options with unknown names (docs/adr/0008): ConfigurationError "unknown option"', () => {
  function expectUnknownOption(error: unknown, name: string, someValidNames: readonly string[]) {
    expect(error).toBeInstanceOf(ConfigurationError)
    const configurationError = error as ConfigurationError
    expect(configurationError.message).toContain(`unknown option "${name}"`)
    for (const valid of someValidNames) expect(configurationError.validValues).toContain(valid)
    expect(configurationError.invalidAttribute).toBe(name)
  }

  it('authorizationUrl with a misspelt option is refused, listing the valid names; nothing is sent', async () => {
    const server = smartServer()
    const error = await rejectionOf(
      smartClient(server.fetch).authorizationUrl({ lanch: 'x' } as never),
    )
    expectUnknownOption(error, 'lanch', ['launch', 'customScopes', 'method', 'signal'])
    expect(sent(server.requests)).toEqual([])
  })

  it('requestAccessToken with an own constructor option is refused; no request is sent', async () => {
    const server = smartServer()
    const options = { code: 'code-123456789', codeVerifier: 'v'.repeat(43), constructor: 1 }
    const error = await rejectionOf(smartClient(server.fetch).requestAccessToken(options as never))
    expectUnknownOption(error, 'constructor', ['code', 'codeVerifier', 'signal'])
    expect(sent(server.requests)).toEqual([])
  })

  it('an options object that is not an object is a ConfigurationError, not a TypeError', async () => {
    const server = smartServer()
    const error = await rejectionOf(smartClient(server.fetch).authorizationUrl('post' as never))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(sent(server.requests)).toEqual([])
  })
})
