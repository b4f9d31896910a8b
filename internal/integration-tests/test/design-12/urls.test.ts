/**
 * DESIGN §12 "URLs": every configured URL (baseUrl, issuer, jwksUri, authorizationEndpoint,
 * tokenEndpoint, registration endpoints; redirectUri excepted) must be HTTPS, or loopback HTTP
 * under allowInsecureLocalhost, when the ClientConfig is built; user info refused; a trailing `/`
 * on baseUrl not significant; a blank string from discovery counts as absent.
 */
import { Client, ClientConfig, ConfigurationError, silentLogger } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import {
  authorizeUrl,
  base,
  discoveryUrl,
  json,
  redirectUri,
  rejectionOf,
  rsaPrivateKeyPem,
  sent,
  smartClient,
  smartDocument,
  smartServer,
  tokenBody,
  tokenUrl,
} from './support/index.js'

const urlAttributes = [
  'baseUrl',
  'issuer',
  'jwksUri',
  'authorizationEndpoint',
  'tokenEndpoint',
] as const
const valid = {
  baseUrl: base,
  clientId: 'client-1',
  redirectUri,
  scopes: ['patient/*.rs'],
}

function configError(build: () => unknown): ConfigurationError {
  try {
    build()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a ConfigurationError, nothing was thrown')
}

describe('DESIGN §12: configured URLs are checked when the ClientConfig is built', () => {
  const refused: ReadonlyArray<[string, string, boolean]> = [
    ['plain HTTP on a public host', 'http://fhir.example.test/r4', false],
    [
      'plain HTTP on a public host, even under allowInsecureLocalhost',
      'http://fhir.example.test/r4',
      true,
    ],
    ['loopback HTTP without allowInsecureLocalhost', 'http://127.0.0.1:8080/r4', false],
    ['localhost HTTP without allowInsecureLocalhost', 'http://localhost:8080/r4', false],
    ['HTTPS with user info', 'https://user:pass@fhir.example.test/r4', false],
    ['HTTPS with a user name only', 'https://user@fhir.example.test/r4', false],
    [
      'loopback HTTP with user info under allowInsecureLocalhost',
      'http://user:pass@127.0.0.1:8080/r4',
      true,
    ],
    ['another scheme', 'ftp://fhir.example.test/r4', false],
  ]
  for (const attribute of urlAttributes) {
    for (const [label, url, allowInsecureLocalhost] of refused) {
      it(`${attribute}: ${label} → ConfigurationError on ${attribute} (new ClientConfig and new Client)`, () => {
        const input = { ...valid, allowInsecureLocalhost, [attribute]: url }
        const fromConfig = configError(() => new ClientConfig(input))
        expect(fromConfig.invalidAttribute).toBe(attribute)
        const fromClient = configError(() => new Client(input, { logger: silentLogger }))
        expect(fromClient.invalidAttribute).toBe(attribute)
        expect(fromClient.message).not.toContain('pass@')
      })
    }
    for (const url of [
      'http://127.0.0.1:8080/r4',
      'http://localhost:8080/r4',
      'http://[::1]:8080/r4',
    ]) {
      it(`${attribute}: loopback ${url} is accepted under allowInsecureLocalhost`, () => {
        const config = new ClientConfig({
          ...valid,
          allowInsecureLocalhost: true,
          [attribute]: url,
        })
        expect(config[attribute]).toBeDefined()
      })
    }
  }

  it('redirectUri is excepted: a custom scheme or plain HTTP redirect URI is not refused by the HTTPS rule', () => {
    const config = new ClientConfig({ ...valid, redirectUri: 'http://app.example.test/callback' })
    expect(config.redirectUri).toBe('http://app.example.test/callback')
  })

  it('the registration endpoint given to registerClient: plain HTTP refused before any request', async () => {
    const server = smartServer()
    const client = smartClient(server.fetch)
    const error = await rejectionOf(
      client.registerClient(
        { client_name: 'x', redirect_uris: [redirectUri] },
        { registrationEndpoint: 'http://auth.example.test/register' },
      ),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(sent(server.requests).filter((line) => line.startsWith('POST'))).toEqual([])
  })

  it('the registration endpoint given to registerClient: user info refused before any request', async () => {
    const server = smartServer()
    const client = smartClient(server.fetch)
    const error = await rejectionOf(
      client.registerClient(
        { client_name: 'x', redirect_uris: [redirectUri] },
        { registrationEndpoint: 'https://user:secretpass@auth.example.test/register' },
      ),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as Error).message).not.toContain('secretpass')
    expect(sent(server.requests).filter((line) => line.startsWith('POST'))).toEqual([])
  })

  it('a discovered endpoint with user info is not used (no request carries user info)', async () => {
    const server = smartServer({
      [discoveryUrl]: () =>
        json({ ...smartDocument, token_endpoint: 'https://u:p@auth.example.test/token' }),
    })
    const client = smartClient(server.fetch)
    const error = await rejectionOf(client.refreshToken({ refreshToken: 'refresh-123456789' }))
    expect(error).toBeDefined()
    expect(server.requests.map((request) => request.url)).toEqual([discoveryUrl])
  })
})

describe('DESIGN §12: a trailing / on baseUrl is not significant', () => {
  it('discovery URL is {baseUrl}/.well-known/smart-configuration without a double slash', async () => {
    const server = smartServer()
    const client = smartClient(server.fetch, { baseUrl: `${base}/` })
    await client.serverMetadata()
    expect(server.requests.map((request) => request.url)).toEqual([discoveryUrl])
  })

  it('aud of the authorization request is the base URL without the trailing slash', async () => {
    const server = smartServer({
      [discoveryUrl]: () => json({ ...smartDocument, issuer: undefined }),
    })
    const withSlash = smartClient(server.fetch, { baseUrl: `${base}/` })
    const { authUrl } = await withSlash.authorizationUrl()
    expect(new URL(authUrl).searchParams.get('aud')).toBe(base)
  })

  it('aud with an explicit issuer given with a trailing slash is left as configured (only baseUrl is normalised)', async () => {
    const server = smartServer()
    const client = smartClient(server.fetch, { baseUrl: `${base}/` })
    const { authUrl } = await client.authorizationUrl()
    expect(new URL(authUrl).searchParams.get('aud')).toBe(base)
  })

  it('beginAuthorization POST params carry aud without the trailing slash', async () => {
    const server = smartServer()
    const client = smartClient(server.fetch, { baseUrl: `${base}/` })
    const { params } = await client.authorizationUrl({ method: 'post' })
    expect(params?.aud).toBe(base)
  })

  it('session.fetch resolves relative input against baseUrl either way, and accepts URLs under it', async () => {
    const server = smartServer()
    const client = smartClient(server.fetch, { baseUrl: `${base}/` })
    const session = client.resumeSession(tokenBody())
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(200)
    expect(server.requests.map((request) => request.url)).toEqual([`${base}/Patient/1`])
  })

  it('backend client assertion aud is the token endpoint (unchanged by the trailing slash)', async () => {
    const server = smartServer()
    const client = smartClient(
      server.fetch,
      { baseUrl: `${base}/`, privateKey: rsaPrivateKeyPem(), kid: 'k', scopes: ['system/*.rs'] },
      { clientType: 'confidential_asymmetric' },
    )
    await client.requestBackendToken()
    const form = new URLSearchParams(server.requests.at(-1)?.bodyText)
    const assertion = form.get('client_assertion') ?? ''
    const claims = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString())
    expect(claims.aud).toBe(tokenUrl)
    expect(server.requests.map((request) => request.url)).toEqual([discoveryUrl, tokenUrl])
  })
})

describe('DESIGN §12: trailing / on baseUrl — the other discovery URL and the "under baseUrl" rule', () => {
  it('validateIdToken looks up {issuer}/.well-known/openid-configuration without a double slash (issuer defaults to baseUrl)', async () => {
    const openid = `${base}/.well-known/openid-configuration`
    const document = { ...smartDocument } as Record<string, unknown>
    delete document.issuer
    delete document.jwks_uri
    const server = smartServer({
      [discoveryUrl]: () => json(document),
      [openid]: () => json({ issuer: base, jwks_uri: 'https://auth.example.test/jwks' }),
      'https://auth.example.test/jwks': () => json({ keys: [] }),
    })
    const client = smartClient(server.fetch, { baseUrl: `${base}/` })
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'k1' })).toString('base64url')
    const claims = Buffer.from(
      JSON.stringify({
        iss: base,
        aud: 'client-1',
        sub: 'u',
        exp: 4_102_444_800,
        iat: 1_700_000_000,
      }),
    ).toString('base64url')
    await rejectionOf(client.validateIdToken(`${header}.${claims}.c2lnbmF0dXJl`))
    const urls = server.requests.map((request) => request.url)
    expect(urls.some((url) => url.includes('//.well-known'))).toBe(false)
    expect(urls).toContain(openid)
  })

  for (const configured of [base, `${base}/`]) {
    it(`session.fetch with baseUrl ${JSON.stringify(configured)}: a sibling path (${base}x/…) is refused, nothing sent`, async () => {
      const server = smartServer()
      const session = smartClient(server.fetch, { baseUrl: configured }).resumeSession(tokenBody())
      const error = await rejectionOf(session.fetch(`${base}x/Patient/1`))
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(server.requests).toEqual([])
    })

    it(`session.fetch with baseUrl ${JSON.stringify(configured)}: the base URL itself (no slash) is under it`, async () => {
      const server = smartServer({ [base]: () => json({ resourceType: 'CapabilityStatement' }) })
      const session = smartClient(server.fetch, { baseUrl: configured }).resumeSession(tokenBody())
      const response = await session.fetch(base)
      expect(response.status).toBe(200)
    })
  }
})

describe('DESIGN §12: a blank string from discovery counts as absent', () => {
  async function failureWith(
    document: Record<string, unknown>,
    run: (client: Client) => Promise<unknown>,
  ) {
    const server = smartServer({ [discoveryUrl]: () => json(document) })
    const client = smartClient(server.fetch)
    const error = (await rejectionOf(run(client))) as Error
    return { error, requests: sent(server.requests) }
  }
  const without = (name: string) => {
    const copy: Record<string, unknown> = { ...smartDocument }
    delete copy[name]
    return copy
  }

  for (const blank of ['', '   ']) {
    it(`authorization_endpoint ${JSON.stringify(blank)} fails as an absent one does, with no authorize URL built`, async () => {
      const absent = await failureWith(without('authorization_endpoint'), (c) =>
        c.authorizationUrl(),
      )
      const empty = await failureWith({ ...smartDocument, authorization_endpoint: blank }, (c) =>
        c.authorizationUrl(),
      )
      expect(empty.error.constructor).toBe(absent.error.constructor)
      expect(empty.error.message).toBe(absent.error.message)
    })

    it(`token_endpoint ${JSON.stringify(blank)} fails as an absent one does, no POST sent`, async () => {
      const run = (c: Client) => c.refreshToken({ refreshToken: 'refresh-123456789' })
      const absent = await failureWith(without('token_endpoint'), run)
      const empty = await failureWith({ ...smartDocument, token_endpoint: blank }, run)
      expect(empty.error.constructor).toBe(absent.error.constructor)
      expect(empty.error.message).toBe(absent.error.message)
      expect(empty.requests).toEqual([`GET ${discoveryUrl}`])
    })

    it(`registration_endpoint ${JSON.stringify(blank)} fails as an absent one does, no POST sent`, async () => {
      const run = (c: Client) =>
        c.registerClient({ client_name: 'x', redirect_uris: [redirectUri] })
      const absent = await failureWith(without('registration_endpoint'), run)
      const empty = await failureWith({ ...smartDocument, registration_endpoint: blank }, run)
      expect(empty.error.constructor).toBe(absent.error.constructor)
      expect(empty.error.message).toBe(absent.error.message)
      expect(empty.requests).toEqual([`GET ${discoveryUrl}`])
    })

    it(`SmartMetadata reads registration_endpoint ${JSON.stringify(blank)} as absent`, async () => {
      const server = smartServer({
        [discoveryUrl]: () => json({ ...smartDocument, registration_endpoint: blank }),
      })
      const metadata = await smartClient(server.fetch).serverMetadata()
      expect(metadata.registrationEndpoint).toBeUndefined()
    })
  }

  it('a blank discovered issuer does not become aud ("" counts as absent, so aud = baseUrl)', async () => {
    const server = smartServer({ [discoveryUrl]: () => json({ ...smartDocument, issuer: '' }) })
    const { authUrl } = await smartClient(server.fetch).authorizationUrl()
    expect(new URL(authUrl).searchParams.get('aud')).toBe(base)
    expect(authUrl.startsWith(`${authorizeUrl}?`)).toBe(true)
  })
})
