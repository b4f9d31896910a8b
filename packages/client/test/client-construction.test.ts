import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { Client, ClientConfig, ConfigurationError } from '../src/index.js'
import { baseUrl, discoveryUrl, fakeServer, json, smartConfiguration } from './support.js'

function configurationError(action: () => unknown): ConfigurationError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a ConfigurationError')
}

const threeTypes = ['public', 'confidential_symmetric', 'confidential_asymmetric']

describe('new Client', () => {
  it('defaults to SMART and a public client', () => {
    const client = new Client({ baseUrl })
    expect(client.protocol).toBe('smart')
    expect(client.clientType).toBe('public')
    expect(client.config).toBeInstanceOf(ClientConfig)
    expect(client.config.issuer).toBe(baseUrl)
  })

  it('accepts a ClientConfig object as is', () => {
    const config = new ClientConfig({ baseUrl })
    expect(new Client(config).config).toBe(config)
  })

  it.each(threeTypes)('takes the SMART client type %s given as a string', (clientType) => {
    expect(new Client({ baseUrl }, { clientType: clientType as never }).clientType).toBe(clientType)
  })

  it('has no client type for UDAP', () => {
    const client = new Client({ baseUrl }, { protocol: 'udap' })
    expect(client.protocol).toBe('udap')
    expect(client.clientType).toBeNull()
  })

  it('treats protocol null like absent', () => {
    expect(new Client({ baseUrl }, { protocol: null as never }).protocol).toBe('smart')
  })

  it('treats clientType null like absent', () => {
    expect(new Client({ baseUrl }, { clientType: null }).clientType).toBe('public')
    expect(new Client({ baseUrl }, { protocol: 'udap', clientType: null }).clientType).toBeNull()
  })

  it.each(['SMART', 'oauth', '', 42, {}])(
    'refuses protocol %j with valid values smart, udap',
    (protocol) => {
      const error = configurationError(
        () => new Client({ baseUrl }, { protocol: protocol as never }),
      )
      expect(error.invalidAttribute).toBe('protocol')
      expect(error.invalidValue).toBe(protocol)
      expect(error.validValues).toEqual(['smart', 'udap'])
    },
  )

  it.each([42, true, {}, ['public']])(
    'refuses a clientType of the wrong kind (%j) with the three valid values',
    (clientType) => {
      const error = configurationError(
        () => new Client({ baseUrl }, { clientType: clientType as never }),
      )
      expect(error.invalidAttribute).toBe('clientType')
      expect(error.validValues).toEqual(threeTypes)
    },
  )

  it.each(['private', 'Public', 'confidential'])(
    'refuses the SMART client type %j',
    (clientType) => {
      const error = configurationError(
        () => new Client({ baseUrl }, { clientType: clientType as never }),
      )
      expect(error.invalidAttribute).toBe('clientType')
      expect(error.invalidValue).toBe(clientType)
      expect(error.validValues).toEqual(threeTypes)
    },
  )

  it.each(threeTypes)(
    'refuses any explicit client type (%s) for UDAP with the not-applicable text',
    (clientType) => {
      const error = configurationError(
        () => new Client({ baseUrl }, { protocol: 'udap', clientType: clientType as never }),
      )
      expect(error.invalidAttribute).toBe('clientType')
      expect(error.validValues).toEqual(['client_type is not applicable for protocol udap'])
    },
  )

  describe('runs the checks in the spec order', () => {
    it('client type kind before protocol', () => {
      const error = configurationError(
        () => new Client({ baseUrl }, { protocol: 'bogus' as never, clientType: 42 as never }),
      )
      expect(error.invalidAttribute).toBe('clientType')
    })

    it('protocol before the client type value', () => {
      const error = configurationError(
        () => new Client({ baseUrl }, { protocol: 'bogus' as never, clientType: 'nope' as never }),
      )
      expect(error.invalidAttribute).toBe('protocol')
    })

    it('client type kind before the UDAP not-applicable check', () => {
      const error = configurationError(
        () => new Client({ baseUrl }, { protocol: 'udap', clientType: 7 as never }),
      )
      expect(error.validValues).toEqual(threeTypes)
    })
  })

  describe('flow (DESIGN §10)', () => {
    it('is b2b by default on UDAP, the given flow, and null on SMART', () => {
      expect(new Client({ baseUrl }, { protocol: 'udap' }).flow).toBe('b2b')
      for (const flow of ['b2b', 'b2c', 'tiered_oauth'] as const) {
        expect(new Client({ baseUrl }, { protocol: 'udap', flow }).flow).toBe(flow)
      }
      expect(new Client({ baseUrl }, { protocol: 'udap', flow: null }).flow).toBe('b2b')
      expect(new Client({ baseUrl }).flow).toBeNull()
      expect(new Client({ baseUrl }, { flow: null }).flow).toBeNull()
    })

    it('refuses another value on UDAP, with the three valid values', () => {
      for (const flow of ['B2B', 'b2x', '', 7, {}]) {
        const error = configurationError(
          () => new Client({ baseUrl }, { protocol: 'udap', flow: flow as never }),
        )
        expect(error.invalidAttribute).toBe('flow')
        expect(error.invalidValue).toBe(flow)
        expect(error.validValues).toEqual(['b2b', 'b2c', 'tiered_oauth'])
      }
    })

    it('refuses any flow on SMART', () => {
      for (const flow of ['b2b', 'b2c', 'tiered_oauth', 'other']) {
        const error = configurationError(() => new Client({ baseUrl }, { flow: flow as never }))
        expect(error.invalidAttribute).toBe('flow')
        expect(error.validValues).toEqual(['flow is not applicable for protocol smart'])
        expect(error.message).toContain('flow is not applicable for protocol smart')
      }
    })

    it('comes after the protocol and client type checks', () => {
      const error = configurationError(
        () =>
          new Client({ baseUrl }, { protocol: 'udap', clientType: 'public', flow: 'x' as never }),
      )
      expect(error.invalidAttribute).toBe('clientType')
      expect(
        configurationError(
          () => new Client({ baseUrl }, { protocol: 'bogus' as never, flow: 'x' as never }),
        ).invalidAttribute,
      ).toBe('protocol')
    })

    it('shows in toJSON for UDAP only', () => {
      expect(new Client({ baseUrl }, { protocol: 'udap', flow: 'b2c' }).toJSON()).toMatchObject({
        protocol: 'udap',
        flow: 'b2c',
      })
      expect(new Client({ baseUrl }).toJSON()).not.toHaveProperty('flow')
    })
  })

  it('refuses unknown options and options of the wrong type', () => {
    expect(
      configurationError(() => new Client({ baseUrl }, { protocl: 'udap' } as never))
        .invalidAttribute,
    ).toBe('protocl')
    expect(
      configurationError(() => new Client({ baseUrl }, { timeoutMs: -1 })).invalidAttribute,
    ).toBe('timeoutMs')
    expect(
      configurationError(() => new Client({ baseUrl }, { fetch: 'fetch' as never }))
        .invalidAttribute,
    ).toBe('fetch')
    expect(
      configurationError(() => new Client({ baseUrl }, { logger: console.log as never }))
        .invalidAttribute,
    ).toBe('logger')
    expect(
      configurationError(() => new Client({ baseUrl }, { crypto: {} as never })).invalidAttribute,
    ).toBe('crypto')
    expect(
      configurationError(() => new Client({ baseUrl }, { now: new Date() as never }))
        .invalidAttribute,
    ).toBe('now')
    expect(
      configurationError(() => new Client({ baseUrl }, 'udap' as never)).invalidAttribute,
    ).toBe('options')
  })

  it('propagates configuration errors', () => {
    expect(configurationError(() => new Client({ baseUrl: 'relative' })).invalidAttribute).toBe(
      'baseUrl',
    )
  })

  it('never shows secrets when serialised or inspected', () => {
    const client = new Client(
      { baseUrl, clientSecret: 'shh-very-secret' },
      { clientType: 'confidential_symmetric' },
    )
    expect(JSON.stringify(client)).not.toContain('shh-very-secret')
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain('shh-very-secret')
    expect(client.toJSON()).toMatchObject({
      protocol: 'smart',
      clientType: 'confidential_symmetric',
    })
  })
})

describe('client.clientType = value', () => {
  it.each(threeTypes)('changes a SMART client to %s', (clientType) => {
    const client = new Client({ baseUrl })
    client.clientType = clientType as never
    expect(client.clientType).toBe(clientType)
  })

  it('refuses an invalid value and keeps the old one', () => {
    const client = new Client({ baseUrl }, { clientType: 'confidential_symmetric' })
    for (const value of ['nope', null, 3]) {
      const error = configurationError(() => {
        client.clientType = value as never
      })
      expect(error.invalidAttribute).toBe('clientType')
      expect(error.validValues).toEqual(threeTypes)
    }
    expect(client.clientType).toBe('confidential_symmetric')
  })

  it('refuses every assignment on a UDAP client and keeps null', () => {
    const client = new Client({ baseUrl }, { protocol: 'udap' })
    const error = configurationError(() => {
      client.clientType = 'public'
    })
    expect(error.validValues).toEqual(['client_type is not applicable for protocol udap'])
    expect(client.clientType).toBeNull()
  })

  it('updates the built implementation in place: metadata kept, no new discovery', async () => {
    const server = fakeServer({ [discoveryUrl]: () => json(smartConfiguration) })
    const client = new Client(
      { baseUrl, clientId: 'app', redirectUri: 'https://app.example.org/cb', scopes: ['openid'] },
      { fetch: server.fetch },
    )
    const before = await client.serverMetadata()
    const first = await client.authorizationUrl()
    expect(first.authUrl).toContain('client_id=app')
    client.clientType = 'confidential_symmetric'
    const after = await client.serverMetadata()
    await client.authorizationUrl()
    expect(after).toBe(before)
    expect(server.count(discoveryUrl)).toBe(1)
  })
})
