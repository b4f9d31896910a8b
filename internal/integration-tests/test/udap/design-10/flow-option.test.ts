/**
 * DESIGN §10, the `flow` option: its values, its errors, `client.flow`, and which operations
 * each flow allows. Black box: only `@fhir-auth/client` names.
 */
import { Client, ConfigurationError, silentLogger } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { fakeRoutes } from '@fhir-auth/test-utils/fake-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { codeMetadata, issueIdentity, rejectionOf, trustOf, udapClient } from './support/context.js'

const baseConfig = {
  baseUrl: 'https://udap.example.test/fhir',
  clientId: 'c1',
  redirectUri: 'https://app.example.test/cb',
  scopes: ['openid', 'user/*.rs'],
}

function construct(options: Record<string, unknown>): () => Client {
  return () => new Client(baseConfig, { logger: silentLogger, ...options } as never)
}

describe('flow values (DESIGN §10)', () => {
  it.each(['b2b', 'b2c', 'tiered_oauth'] as const)(
    'accepts flow %s on UDAP and reads it back',
    (flow) => {
      const client = construct({ protocol: 'udap', flow })()
      expect(client.flow).toBe(flow)
    },
  )

  it('defaults flow to b2b on UDAP', () => {
    expect(construct({ protocol: 'udap' })().flow).toBe('b2b')
  })

  it('reads client.flow as null for SMART', () => {
    expect(construct({ protocol: 'smart' })().flow).toBeNull()
    expect(construct({})().flow).toBeNull()
  })

  it.each([
    ['an unknown string', 'b2x'],
    ['upper case', 'B2B'],
    ['the Ruby symbol spelling with a colon', ':b2c'],
    ['a hyphenated spelling', 'tiered-oauth'],
    ['an empty string', ''],
    ['a number', 1],
    ['a boolean', true],
    ['an array', ['b2b']],
    ['an object', { flow: 'b2b' }],
  ])(
    'refuses %s as flow on UDAP: ConfigurationError on flow with the three valid values',
    (_label, value) => {
      let caught: unknown
      try {
        construct({ protocol: 'udap', flow: value })()
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(ConfigurationError)
      const error = caught as ConfigurationError
      expect(error.invalidAttribute).toBe('flow')
      expect(error.invalidValue).toEqual(value)
      expect([...(error.validValues ?? [])].sort()).toEqual(['b2b', 'b2c', 'tiered_oauth'])
    },
  )

  it.each(['b2b', 'b2c', 'tiered_oauth', 'nonsense'])(
    'refuses flow %s with protocol smart: ConfigurationError on flow',
    (flow) => {
      expect(construct({ protocol: 'smart', flow })).toThrow(ConfigurationError)
      try {
        construct({ protocol: 'smart', flow })()
      } catch (error) {
        expect((error as ConfigurationError).invalidAttribute).toBe('flow')
      }
    },
  )

  it('refuses a flow when the protocol defaults to smart', () => {
    expect(construct({ flow: 'b2c' })).toThrow(
      expect.objectContaining({ invalidAttribute: 'flow' }),
    )
  })
})

describe('operations each flow allows (DESIGN §10)', () => {
  it.each(['b2c', 'tiered_oauth'])(
    'flow %s: requestBackendToken is a ConfigurationError on flow and nothing is sent',
    async (flow) => {
      const routes = fakeRoutes({})
      const client = new Client({ ...baseConfig, allowInsecureLocalhost: false }, {
        protocol: 'udap',
        flow,
        fetch: routes.fetch,
        logger: silentLogger,
      } as never)
      const error = await rejectionOf(() =>
        client.requestBackendToken({ scopes: ['system/*.rs'], trustedAnchors: [], crls: [] }),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('flow')
      expect(routes.requests).toHaveLength(0)
    },
  )

  it.each(['b2c', 'tiered_oauth'])(
    'flow %s: backendTokens is a ConfigurationError on flow and nothing is sent',
    async (flow) => {
      const routes = fakeRoutes({})
      const client = new Client(baseConfig, {
        protocol: 'udap',
        flow,
        fetch: routes.fetch,
        logger: silentLogger,
      } as never)
      // Refused either when asked for, or at the latest on first use.
      const error = await rejectionOf(async () => {
        const tokens = client.backendTokens({ scopes: ['system/*.rs'] })
        await tokens.accessToken()
      })
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('flow')
      expect(routes.requests).toHaveLength(0)
    },
  )

  it.each(['b2c', 'tiered_oauth'])(
    'flow %s: backendTokens is refused when asked for, not on first use',
    (flow) => {
      const client = new Client(baseConfig, {
        protocol: 'udap',
        flow,
        logger: silentLogger,
      } as never)
      expect(() => client.backendTokens({ scopes: ['system/*.rs'] })).toThrow(
        expect.objectContaining({ invalidAttribute: 'flow' }),
      )
    },
  )
})

describe('b2b does both grants against a real server (DESIGN §10)', () => {
  let sandbox: UdapSandbox
  beforeAll(async () => {
    sandbox = await startUdapSandbox({
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
    })
  }, 60_000)
  afterAll(async () => {
    await sandbox?.close()
  })

  it('b2b (default) client: client credentials token and an authorization URL at the signed endpoint', async () => {
    const trust = trustOf(sandbox.trust)
    const ccIdentity = await issueIdentity(sandbox)
    const registrar = udapClient(sandbox, ccIdentity, {}, { scopes: ['system/*.rs'] })
    const cc = await registrar.registerClient(
      {
        client_name: 'probe cc',
        contacts: ['mailto:probe@example.test'],
        grant_types: ['client_credentials'],
        scope: 'system/*.rs',
      },
      { clientUri: ccIdentity.clientUri, ...trust },
    )
    const ccClient = udapClient(
      sandbox,
      ccIdentity,
      {},
      { scopes: ['system/*.rs'], clientId: String(cc.client_id) },
    )
    expect(ccClient.flow).toBe('b2b')
    const token = await ccClient.requestBackendToken({
      scopes: ['system/*.rs'],
      b2b: {
        organizationId: 'https://org.example.test/1',
        organizationName: 'Org',
        purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
      },
      ...trust,
    })
    expect(typeof token.access_token).toBe('string')

    const codeIdentity = await issueIdentity(sandbox)
    const codeRegistrar = udapClient(sandbox, codeIdentity, { flow: 'b2b' })
    const code = await codeRegistrar.registerClient(
      codeMetadata('openid user/*.rs offline_access'),
      {
        clientUri: codeIdentity.clientUri,
        ...trust,
      },
    )
    const codeClient = udapClient(
      sandbox,
      codeIdentity,
      { flow: 'b2b' },
      { clientId: String(code.client_id) },
    )
    const { authUrl } = await codeClient.authorizationUrl({ ...trust })
    expect(authUrl.startsWith(`${sandbox.endpoints.authorization}?`)).toBe(true)
  })
})
