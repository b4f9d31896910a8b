/**
 * DESIGN §10, the UDAP authorization request: trust inputs, the signed `authorization_endpoint`,
 * the exact parameters (no `aud`, no `launch`), and Tiered OAuth's `udap` scope and `idp`.
 */
import {
  type AuthorizationUrlResult,
  type Client,
  ConfigurationError,
  DiscoveryError,
  FhirAuthError,
  memoryStore,
} from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { registeredClient, rejectionOf, trustOf } from './support/context.js'

let sandbox: UdapSandbox
let idpLike: string
beforeAll(async () => {
  sandbox = await startUdapSandbox({
    grantTypes: ['authorization_code', 'refresh_token'],
    tieredOAuth: true,
  })
  idpLike = 'https://idp.example.test/oidc'
}, 60_000)
afterAll(async () => {
  await sandbox?.close()
})
afterEach(() => {
  sandbox.setHostile(undefined)
})

/** The parameters of a GET authorization URL, or of a POST form. */
function parametersOf(
  result: Pick<AuthorizationUrlResult, 'authUrl' | 'params'>,
): Record<string, string> {
  if (result.params !== undefined) return { ...result.params }
  return Object.fromEntries(new URL(result.authUrl).searchParams)
}

const coreParameters = [
  'client_id',
  'code_challenge',
  'code_challenge_method',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
]

async function clientFor(
  flow: string,
  scopes: readonly string[],
): Promise<{ client: Client; clientId: string }> {
  return registeredClient(sandbox, {
    flow,
    scopes,
    registeredScope: 'openid udap profile email user/*.rs patient/*.rs offline_access',
  })
}

describe('parameters of the UDAP authorization request (DESIGN §10)', () => {
  it.each(['b2b', 'b2c'])(
    'flow %s, GET: exactly the seven parameters, no aud, no nonce without openid',
    async (flow) => {
      const { client, clientId } = await clientFor(flow, ['user/*.rs'])
      const result = await client.authorizationUrl({ ...trustOf(sandbox.trust) })
      const url = new URL(result.authUrl)
      expect(`${url.origin}${url.pathname}`).toBe(sandbox.endpoints.authorization)
      const parameters = parametersOf(result)
      expect(Object.keys(parameters).sort()).toEqual(coreParameters)
      expect(parameters).toMatchObject({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'https://app.example.test/cb',
        scope: 'user/*.rs',
        state: result.state,
        code_challenge_method: 'S256',
      })
      expect(result.codeVerifier.length).toBeGreaterThanOrEqual(43)
    },
  )

  it('POST: the same parameters as a form for the signed endpoint', async () => {
    const { client } = await clientFor('b2c', ['user/*.rs'])
    const result = await client.authorizationUrl({ ...trustOf(sandbox.trust), method: 'post' })
    expect(result.authUrl).toBe(sandbox.endpoints.authorization)
    expect(Object.keys(parametersOf(result)).sort()).toEqual(coreParameters)
  })

  it('with openid: the seven parameters plus a nonce, still no aud', async () => {
    const { client } = await clientFor('b2c', ['openid', 'user/*.rs'])
    const result = await client.beginAuthorization({
      ...trustOf(sandbox.trust),
      store: memoryStore(),
    })
    const parameters = parametersOf(result)
    expect(Object.keys(parameters).sort()).toEqual([...coreParameters, 'nonce'].sort())
    expect(parameters).not.toHaveProperty('aud')
  })

  it('a launch given to a UDAP client is never sent as a parameter', async () => {
    const { client } = await clientFor('b2c', ['user/*.rs'])
    const outcome = await client
      .authorizationUrl({ ...trustOf(sandbox.trust), launch: 'xyz' })
      .then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      )
    if ('result' in outcome) expect(parametersOf(outcome.result)).not.toHaveProperty('launch')
    else expect(outcome.error).toBeInstanceOf(ConfigurationError)
  })

  it('uses the SIGNED authorization_endpoint when the unsigned one differs (authorizationUrl and beginAuthorization)', async () => {
    const { client } = await clientFor('b2c', ['user/*.rs'])
    sandbox.setHostile('unsigned-authorization-endpoint')
    const viaUrl = await client.authorizationUrl({ ...trustOf(sandbox.trust) })
    expect(viaUrl.authUrl.startsWith(`${sandbox.endpoints.authorization}?`)).toBe(true)
    const { client: other } = await clientFor('b2c', ['user/*.rs'])
    const viaBegin = await other.beginAuthorization({
      ...trustOf(sandbox.trust),
      store: memoryStore(),
    })
    expect(viaBegin.authUrl.startsWith(`${sandbox.endpoints.authorization}?`)).toBe(true)
    expect(viaBegin.authUrl).not.toContain('unsigned-authorize')
  })
})

describe('trust inputs of the authorization request (DESIGN §10)', () => {
  it('without trust inputs and no metadata validated before: refused, never an unvalidated URL', async () => {
    const { client } = await clientFor('b2c', ['user/*.rs'])
    const before = sandbox.requestCounts.discovery
    const error = await rejectionOf(() => client.authorizationUrl({}))
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(sandbox.requestCounts.discovery).toBe(before)
  })

  it('with the anchors of another community: DiscoveryError, no URL', async () => {
    const other = await startUdapSandbox()
    try {
      const { client } = await clientFor('b2c', ['user/*.rs'])
      const error = await rejectionOf(() => client.authorizationUrl({ ...trustOf(other.trust) }))
      expect(error).toBeInstanceOf(DiscoveryError)
    } finally {
      await other.close()
    }
  })

  it('with a stale CRL for the server chain: DiscoveryError', async () => {
    const { client } = await clientFor('b2c', ['user/*.rs'])
    const error = await rejectionOf(() =>
      client.authorizationUrl({
        trustedAnchors: sandbox.trust.anchors.map((a) => a.pem),
        crls: sandbox.trust.crlVariants.stale.map((c) => c.pem),
      }),
    )
    expect(error).toBeInstanceOf(DiscoveryError)
  })

  it.each([
    ['trustedAnchors a string', { trustedAnchors: 'PEM', crls: [] }, 'trustedAnchors'],
    ['trustedAnchors a number', { trustedAnchors: 3, crls: [] }, 'trustedAnchors'],
    ['crls an object', { trustedAnchors: ['x'], crls: { a: 1 } }, 'crls'],
    ['community a number', { trustedAnchors: ['x'], crls: [], community: 5 }, 'community'],
  ])(
    'wrong JS type: %s is a ConfigurationError naming it, nothing sent',
    async (_label, trust, attribute) => {
      const { client } = await clientFor('b2c', ['user/*.rs'])
      const before = sandbox.requests.length
      const error = await rejectionOf(() => client.authorizationUrl(trust as never))
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
      expect(sandbox.requests.length).toBe(before)
    },
  )

  it('reuses the metadata validated earlier on this client: no trust inputs needed the second time', async () => {
    const { client } = await clientFor('b2c', ['user/*.rs'])
    await client.authorizationUrl({ ...trustOf(sandbox.trust) })
    const again = await client.authorizationUrl({})
    expect(again.authUrl.startsWith(`${sandbox.endpoints.authorization}?`)).toBe(true)
  })
})

describe('Tiered OAuth: udap scope and idp (DESIGN §10)', () => {
  it('adds udap to the scopes when absent and sends idp', async () => {
    const { client } = await clientFor('tiered_oauth', ['openid', 'user/*.rs'])
    const result = await client.authorizationUrl({ ...trustOf(sandbox.trust), idp: idpLike })
    const parameters = parametersOf(result)
    expect(parameters.scope?.split(' ').sort()).toEqual(['openid', 'udap', 'user/*.rs'])
    expect(parameters.idp).toBe(idpLike)
    expect(parameters).not.toHaveProperty('aud')
    expect(Object.keys(parameters).sort()).toEqual([...coreParameters, 'idp', 'nonce'].sort())
  })

  it('does not add udap twice when present', async () => {
    const { client } = await clientFor('tiered_oauth', ['udap', 'openid', 'user/*.rs'])
    const result = await client.authorizationUrl({ ...trustOf(sandbox.trust), idp: idpLike })
    const scopes = parametersOf(result).scope?.split(' ') ?? []
    expect(scopes.filter((scope) => scope === 'udap')).toHaveLength(1)
  })

  it('adds udap to customScopes too', async () => {
    const { client } = await clientFor('tiered_oauth', ['openid', 'user/*.rs'])
    const result = await client.beginAuthorization({
      ...trustOf(sandbox.trust),
      idp: idpLike,
      customScopes: ['openid', 'patient/*.rs'],
      store: memoryStore(),
    })
    expect(parametersOf(result).scope?.split(' ').sort()).toEqual([
      'openid',
      'patient/*.rs',
      'udap',
    ])
  })

  it.each([
    ['data scopes', ['openid', 'user/*.rs']],
    ['openid udap patient/*.rs', ['openid', 'udap', 'patient/*.rs']],
    ['offline_access (not an identity scope)', ['openid', 'udap', 'offline_access']],
    ['fhirUser (not in the identity list)', ['openid', 'udap', 'fhirUser']],
  ])('idp missing with %s: ConfigurationError on idp, nothing sent', async (_label, scopes) => {
    const { client } = await clientFor('tiered_oauth', scopes)
    const before = sandbox.requests.length
    const error = await rejectionOf(() => client.authorizationUrl({ ...trustOf(sandbox.trust) }))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('idp')
    expect(sandbox.requests.length).toBe(before)
  })

  it.each([
    ['openid udap', ['openid', 'udap']],
    ['openid only (udap added)', ['openid']],
    ['openid udap profile email', ['openid', 'udap', 'profile', 'email']],
  ])('idp not required with identity scopes only: %s', async (_label, scopes) => {
    const { client } = await clientFor('tiered_oauth', scopes)
    const result = await client.authorizationUrl({ ...trustOf(sandbox.trust) })
    const parameters = parametersOf(result)
    expect(parameters).not.toHaveProperty('idp')
    expect(parameters.scope?.split(' ')).toContain('udap')
  })

  it('identity scopes only given as customScopes on a client configured with data scopes: no idp needed', async () => {
    const { client } = await clientFor('tiered_oauth', ['openid', 'user/*.rs'])
    const result = await client.authorizationUrl({
      ...trustOf(sandbox.trust),
      customScopes: ['openid', 'udap'],
    })
    expect(parametersOf(result)).not.toHaveProperty('idp')
  })

  it.each([
    ['a number', 42],
    ['an object', { url: 'https://idp.example.test' }],
    ['an empty string', ''],
    ['not a URL', 'idp.example.test'],
    ['plain HTTP on a public host', 'http://idp.example.test/oidc'],
    ['a javascript: URL', 'javascript:alert(1)'],
  ])('idp %s: ConfigurationError on idp, no authorization URL', async (_label, idp) => {
    // DESIGN §10 does not say "before any request" for idp: discovery may have run first.
    const { client } = await clientFor('tiered_oauth', ['openid', 'user/*.rs'])
    const error = await rejectionOf(() =>
      client.authorizationUrl({ ...trustOf(sandbox.trust), idp: idp as never }),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('idp')
  })

  it('idp with user info (https://user:pass@…) is refused as DESIGN §12 refuses such URLs, and its password is never echoed', async () => {
    const { client } = await clientFor('tiered_oauth', ['openid', 'user/*.rs'])
    const outcome = await client
      .authorizationUrl({
        ...trustOf(sandbox.trust),
        idp: 'https://user:s3cr3t-pw@idp.example.test/oidc',
      })
      .then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      )
    expect('result' in outcome ? outcome.result.authUrl : '').not.toContain('s3cr3t-pw')
    expect('error' in outcome ? outcome.error : undefined).toBeInstanceOf(ConfigurationError)
    if ('error' in outcome) {
      expect((outcome.error as ConfigurationError).invalidAttribute).toBe('idp')
      expect(String((outcome.error as Error).message)).not.toContain('s3cr3t-pw')
      expect(JSON.stringify(outcome.error)).not.toContain('s3cr3t-pw')
    }
  })
})
