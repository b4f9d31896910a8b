import { describe, expect, it } from 'vitest'
import { ClientConfig, ConfigurationError } from '../src/index.js'

const base = { baseUrl: 'https://ehr.example.org/fhir' }

function configurationError(action: () => unknown): ConfigurationError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a ConfigurationError')
}

describe('ClientConfig', () => {
  it('keeps every attribute as given and defaults issuer to baseUrl', () => {
    const config = new ClientConfig({
      ...base,
      clientId: 'app',
      redirectUri: 'https://app.example.org/cb',
      scopes: ['openid', 'patient/*.rs'],
      kid: 'k1',
      jwtAlgorithm: 'ES384',
      jwksUri: 'https://app.example.org/jwks',
      tokenEndpoint: 'https://ehr.example.org/token',
      authorizationEndpoint: 'https://ehr.example.org/authorize',
      allowInsecureLocalhost: true,
    })
    expect(config.issuer).toBe(base.baseUrl)
    expect(config.clientId).toBe('app')
    expect(config.scopes).toEqual(['openid', 'patient/*.rs'])
    expect(config.allowInsecureLocalhost).toBe(true)
    expect(config.tokenEndpoint).toBe('https://ehr.example.org/token')
  })

  it('uses an explicit issuer instead of baseUrl', () => {
    const config = new ClientConfig({ ...base, issuer: 'https://issuer.example.org/fhir' })
    expect(config.issuer).toBe('https://issuer.example.org/fhir')
  })

  it('keeps URL strings exactly as written (no trailing slash added, no case change)', () => {
    const config = new ClientConfig({ baseUrl: 'https://EHR.example.org:443' })
    expect(config.baseUrl).toBe('https://EHR.example.org:443')
    expect(config.issuer).toBe('https://EHR.example.org:443')
  })

  it('treats null as absent and allows construction without flow attributes', () => {
    const config = new ClientConfig({ ...base, clientId: null, scopes: null, privateKey: null })
    expect(config.clientId).toBeUndefined()
    expect(config.scopes).toBeUndefined()
    expect(config.privateKey).toBeUndefined()
    expect(config.allowInsecureLocalhost).toBe(false)
  })

  it('is frozen, including its scopes', () => {
    const scopes = ['a']
    const config = new ClientConfig({ ...base, scopes })
    scopes.push('b')
    expect(config.scopes).toEqual(['a'])
    expect(Object.isFrozen(config)).toBe(true)
    expect(Object.isFrozen(config.scopes)).toBe(true)
    expect(() => {
      ;(config as { clientId?: string }).clientId = 'x'
    }).toThrow(TypeError)
  })

  it.each([
    ['baseUrl', 42],
    ['clientId', 42],
    ['redirectUri', {}],
    ['kid', true],
    ['jwtAlgorithm', 384],
    ['jwksUri', []],
    ['issuer', 1],
    ['authorizationEndpoint', false],
    ['tokenEndpoint', 0],
    ['clientSecret', 1234],
  ])('rejects a non-string %s naming the attribute', (attribute, value) => {
    const error = configurationError(() => new ClientConfig({ ...base, [attribute]: value }))
    expect(error.invalidAttribute).toBe(attribute)
    expect(error.message).toContain(attribute)
  })

  it.each([
    ['baseUrl', 'fhir/r4'],
    ['baseUrl', ''],
    ['tokenEndpoint', '/token'],
    ['redirectUri', 'callback'],
    ['jwksUri', 'not a url'],
    ['issuer', 'javascript:alert(1)'],
    ['authorizationEndpoint', 'data:text/html,hi'],
    ['tokenEndpoint', 'ftp://ehr.example.org/token'],
    ['redirectUri', 'javascript:alert(1)'],
    ['redirectUri', 'data:text/html,<script>1</script>'],
  ])('rejects %s = %j as not a usable absolute URL', (attribute, value) => {
    const error = configurationError(() => new ClientConfig({ ...base, [attribute]: value }))
    expect(error.invalidAttribute).toBe(attribute)
    expect(error.invalidValue).toBe(value)
  })

  const urlAttributes = ['baseUrl', 'issuer', 'jwksUri', 'authorizationEndpoint', 'tokenEndpoint']

  it.each(urlAttributes)(
    'refuses plain HTTP to another host for %s when the config is built, with or without allowInsecureLocalhost',
    (attribute) => {
      for (const allowInsecureLocalhost of [false, true]) {
        const error = configurationError(
          () =>
            new ClientConfig({
              ...base,
              allowInsecureLocalhost,
              [attribute]: 'http://evil.example/path',
            }),
        )
        expect(error.invalidAttribute).toBe(attribute)
        expect(error.message).toMatch(/must be HTTPS/)
      }
    },
  )

  it.each(urlAttributes)(
    'accepts loopback HTTP for %s only under allowInsecureLocalhost',
    (attribute) => {
      const url = 'http://127.0.0.1:8080/fhir'
      expect(
        (
          new ClientConfig({
            ...base,
            allowInsecureLocalhost: true,
            [attribute]: url,
          }) as never as Record<string, unknown>
        )[attribute],
      ).toBe(url)
      expect(
        configurationError(() => new ClientConfig({ ...base, [attribute]: url })).message,
      ).toMatch(/allowInsecureLocalhost/)
    },
  )

  it.each(urlAttributes)('refuses user info in %s without showing the credentials', (attribute) => {
    const password = 'pa55-word-in-the-url'
    const error = configurationError(
      () =>
        new ClientConfig({ ...base, [attribute]: `https://alice:${password}@ehr.example.org/x` }),
    )
    expect(error.invalidAttribute).toBe(attribute)
    expect(error.message).toMatch(/user info/)
    const shown = JSON.stringify([error.message, error.invalidValue, error.stack, { ...error }])
    expect(shown).not.toContain(password)
    expect(shown).not.toContain('alice')
  })

  it('keeps the redirect URI out of the HTTPS rule (apps on http://localhost, native schemes)', () => {
    expect(new ClientConfig({ ...base, redirectUri: 'http://app.example/cb' }).redirectUri).toBe(
      'http://app.example/cb',
    )
  })

  it.each([
    ['https://ehr.example.org/fhir/', 'https://ehr.example.org/fhir'],
    ['https://ehr.example.org/fhir//', 'https://ehr.example.org/fhir'],
    ['https://ehr.example.org/', 'https://ehr.example.org'],
    ['https://ehr.example.org/fhir', 'https://ehr.example.org/fhir'],
  ])('drops the trailing slash of baseUrl %s, and issuer (aud) follows', (given, expected) => {
    const config = new ClientConfig({ baseUrl: given })
    expect(config.baseUrl).toBe(expected)
    expect(config.issuer).toBe(expected)
    expect(config.toJSON().baseUrl).toBe(expected)
  })

  it('keeps an explicitly configured issuer as written', () => {
    const config = new ClientConfig({
      baseUrl: 'https://ehr.example.org/fhir/',
      issuer: 'https://issuer.example.org/',
    })
    expect(config.issuer).toBe('https://issuer.example.org/')
    expect(config.with({ clientId: 'x' }).issuer).toBe('https://issuer.example.org/')
  })

  it('accepts a private-use scheme redirect URI for native apps', () => {
    expect(
      new ClientConfig({ ...base, redirectUri: 'com.example.app:/callback' }).redirectUri,
    ).toBe('com.example.app:/callback')
  })

  it.each([
    ['a string', 'openid profile'],
    ['numbers', [1, 2]],
    ['an object', { scope: 'openid' }],
  ])('rejects scopes given as %s', (_label, value) => {
    expect(
      configurationError(() => new ClientConfig({ ...base, scopes: value as never }))
        .invalidAttribute,
    ).toBe('scopes')
  })

  it('rejects a non-boolean allowInsecureLocalhost', () => {
    const error = configurationError(
      () => new ClientConfig({ ...base, allowInsecureLocalhost: 'yes' as never }),
    )
    expect(error.invalidAttribute).toBe('allowInsecureLocalhost')
    expect(error.validValues).toEqual(['true', 'false'])
  })

  it('rejects a privateKey that is neither a string nor an object without echoing it', () => {
    const error = configurationError(
      () => new ClientConfig({ ...base, privateKey: 12345 as never }),
    )
    expect(error.invalidAttribute).toBe('privateKey')
    expect(String(error.invalidValue)).not.toContain('12345')
  })

  it('rejects a certificateChain that is not an array of certificates', () => {
    expect(
      configurationError(() => new ClientConfig({ ...base, certificateChain: 'PEM' as never }))
        .invalidAttribute,
    ).toBe('certificateChain')
    expect(
      configurationError(() => new ClientConfig({ ...base, certificateChain: [1] as never }))
        .invalidAttribute,
    ).toBe('certificateChain')
  })

  it('rejects unknown attributes, listing the valid ones', () => {
    const error = configurationError(() => new ClientConfig({ ...base, clientID: 'typo' } as never))
    expect(error.invalidAttribute).toBe('clientID')
    expect(error.validValues).toContain('clientId')
  })

  it.each([null, undefined, 'https://x', 42, []])('rejects %j as the whole config', (value) => {
    expect(configurationError(() => new ClientConfig(value as never)).invalidAttribute).toBe(
      'config',
    )
  })

  it('never shows the client secret or private key in toJSON, JSON.stringify or its keys', () => {
    const secret = 'super-secret-value-123'
    const key =
      '-----BEGIN PRIVATE KEY-----\nMIIBVwIBADANBgkqhkiG9w0BAQEFAASCAUEwggE9AgEAAkEA\n-----END PRIVATE KEY-----'
    const config = new ClientConfig({
      ...base,
      clientSecret: secret,
      privateKey: key,
      certificateChain: ['PEM'],
    })
    for (const rendered of [
      JSON.stringify(config),
      JSON.stringify(config.toJSON()),
      JSON.stringify(Object.entries(config)),
      String(Object.keys(config)),
    ]) {
      expect(rendered).not.toContain(secret)
      expect(rendered).not.toContain('MIIBVwIBADAN')
    }
    expect(config.toJSON()).toMatchObject({ clientSecret: '[REDACTED]', privateKey: '[REDACTED]' })
    expect(config.clientSecret).toBe(secret)
    expect(config.privateKey).toBe(key)
  })

  it('from() returns a ClientConfig as is and converts a plain object', () => {
    const config = new ClientConfig(base)
    expect(ClientConfig.from(config)).toBe(config)
    expect(ClientConfig.from(base)).toBeInstanceOf(ClientConfig)
  })

  it('with() replaces attributes, keeps secrets and re-derives a defaulted issuer', () => {
    const config = new ClientConfig({ ...base, clientSecret: 's' })
    const changed = config.with({ clientId: 'new', baseUrl: 'https://other.example.org/fhir' })
    expect(changed.clientId).toBe('new')
    expect(changed.clientSecret).toBe('s')
    expect(changed.issuer).toBe('https://other.example.org/fhir')
    const explicit = new ClientConfig({ ...base, issuer: 'https://iss.example.org' }).with({
      clientId: 'x',
    })
    expect(explicit.issuer).toBe('https://iss.example.org')
  })
})
