/**
 * The binding of a SMART configuration's `issuer` to its server (ADR 0013; RFC 8414 §3.3, OIDC
 * Discovery §4.3, RFC 9207): the three ways an issuer is bound, each way it is not, and how one
 * client keeps the verdict. Through `Client` against loopback servers in the integration tests
 * (internal/integration-tests/test/smart/issuer-binding.test.ts).
 */
import { DiscoveryError, IdTokenError } from '@fhir-auth/core'
import type { RouteHandler } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import {
  bindSmartIssuer,
  type ClaimingMetadata,
  type KnownServer,
  openIdConfigurationDocument,
  SmartIssuerBinding,
} from '../src/smart/issuer-binding.js'
import { fakeServer, json } from './support.js'

const base = 'https://fhir.example.org/r4'
const issuer = 'https://auth.example.org'
const openIdUrl = `${issuer}/.well-known/openid-configuration`
const smartKeys = `${issuer}/smart-jwks`

/** How an unbound {@link issuer} is explained (the issuer shown as a URL: origin and path). */
const unboundBecause = (detail: string) => ({
  bound: false,
  why: `the issuer ${issuer}/ named by the SMART configuration is not bound to this server: it is neither the configured issuer nor the FHIR base URL, and ${detail}`,
})

/** A SMART configuration claiming `issuer`, with its endpoints at the authorization server. */
const metadata: ClaimingMetadata = {
  authorizationEndpoint: `${issuer}/authorize`,
  tokenEndpoint: `${issuer}/token`,
  jwksUri: smartKeys,
  raw: { id_token_signing_alg_values_supported: ['ES256'] },
}

/** The authorization server's own openid-configuration, consistent with {@link metadata}. */
const consistent = {
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: smartKeys,
  id_token_signing_alg_values_supported: ['RS256', 'PS256'],
}

const known: KnownServer = { issuer: base, baseUrl: base }

function serving(route: RouteHandler) {
  const server = fakeServer({ [openIdUrl]: route })
  return { server, transport: { fetch: server.fetch } }
}

describe('bindSmartIssuer', () => {
  it('binds the configured issuer, with the SMART configuration’s keys, asking nothing', async () => {
    const { server, transport } = serving(() => json(consistent))
    const configured = { issuer, baseUrl: base }
    expect(await bindSmartIssuer(issuer, metadata, configured, transport)).toEqual({
      bound: true,
      provider: { issuer, jwksUri: smartKeys, algorithms: ['ES256'] },
    })
    expect(server.requests).toHaveLength(0)
  })

  it.each([
    ['equal', base, base],
    ['with a trailing / on the issuer', `${base}/`, base],
    ['with a trailing / on the base URL', base, `${base}/`],
  ])('binds the FHIR base URL (%s), asking nothing', async (_case, claimed, baseUrl) => {
    const { server, transport } = serving(() => json(consistent))
    const noMetadataKeys = { ...metadata, jwksUri: undefined }
    const binding = await bindSmartIssuer(
      claimed,
      noMetadataKeys,
      { issuer: 'https://configured.example', baseUrl },
      transport,
    )
    expect(binding).toEqual({
      bound: true,
      provider: { issuer: claimed, jwksUri: undefined, algorithms: ['ES256'] },
    })
    expect(server.requests).toHaveLength(0)
  })

  it('binds an issuer whose openid-configuration agrees, with that document’s keys', async () => {
    const { server, transport } = serving(() => json({ ...consistent, jwks_uri: `${issuer}/jwks` }))
    const noMetadataKeys = { ...metadata, jwksUri: undefined }
    expect(await bindSmartIssuer(issuer, noMetadataKeys, known, transport)).toEqual({
      bound: true,
      provider: { issuer, jwksUri: `${issuer}/jwks`, algorithms: ['ES256'] },
    })
    expect(server.count(openIdUrl)).toBe(1)
  })

  it('takes the ID token algorithms of the openid-configuration when the SMART configuration names none', async () => {
    const { transport } = serving(() => json(consistent))
    const silent = { ...metadata, raw: {} }
    expect(await bindSmartIssuer(issuer, silent, known, transport)).toEqual({
      bound: true,
      provider: { issuer, jwksUri: smartKeys, algorithms: ['RS256', 'PS256'] },
    })
  })

  it('binds by openid-configuration when only one document names a key set', async () => {
    const { jwks_uri: _none, ...withoutKeys } = consistent
    const { transport } = serving(() => json({ ...withoutKeys, jwks_uri: 42 }))
    expect(await bindSmartIssuer(issuer, metadata, known, transport)).toMatchObject({
      bound: true,
      provider: { issuer, jwksUri: undefined },
    })
  })

  it('asks {issuer}/.well-known/openid-configuration without a doubled /, and needs the exact issuer', async () => {
    const { server, transport } = serving(() => json({ ...consistent, issuer: `${issuer}/` }))
    expect(await bindSmartIssuer(`${issuer}/`, metadata, known, transport)).toMatchObject({
      bound: true,
      provider: { issuer: `${issuer}/` },
    })
    expect(server.count(openIdUrl)).toBe(1)
  })

  it('does not take a base URL that differs by more than one trailing /', async () => {
    const asked = `${base}/.well-known/openid-configuration`
    const server = fakeServer({ [asked]: () => new Response('', { status: 404 }) })
    const binding = await bindSmartIssuer(`${base}//`, metadata, known, { fetch: server.fetch })
    expect(binding.bound).toBe(false)
    expect(server.requests.map((request) => request.url)).toEqual([asked])
  })

  it('without a configured issuer or base URL, asks the openid-configuration', async () => {
    const { server, transport } = serving(() => json(consistent))
    const nothingKnown = { issuer: undefined, baseUrl: undefined }
    expect((await bindSmartIssuer(issuer, metadata, nothingKnown, transport)).bound).toBe(true)
    expect(server.count(openIdUrl)).toBe(1)
  })

  it.each([
    ['authorization_endpoint', { authorization_endpoint: 'https://evil.example/authorize' }],
    ['authorization_endpoint', { authorization_endpoint: undefined }],
    ['authorization_endpoint', { authorization_endpoint: ['https://auth.example.org/authorize'] }],
    ['token_endpoint', { token_endpoint: 'https://evil.example/token' }],
    ['token_endpoint', { token_endpoint: undefined }],
    ['jwks_uri', { jwks_uri: 'https://evil.example/jwks' }],
  ])(
    'leaves the issuer unbound when its openid-configuration names another %s',
    async (member, change) => {
      const { transport } = serving(() => json({ ...consistent, ...change }))
      const binding = await bindSmartIssuer(issuer, metadata, known, transport)
      expect(binding).toEqual(unboundBecause(`its openid-configuration names another ${member}`))
    },
  )

  it('leaves an issuer unbound when the SMART configuration lacks the endpoints its document names', async () => {
    const { transport } = serving(() => json(consistent))
    const bare = { ...metadata, authorizationEndpoint: undefined, tokenEndpoint: undefined }
    expect(await bindSmartIssuer(issuer, bare, known, transport)).toEqual(
      unboundBecause('its openid-configuration names another authorization_endpoint'),
    )
  })

  it('leaves an issuer unbound when neither document names an endpoint: nothing is vouched for', async () => {
    const { authorization_endpoint: _a, token_endpoint: _t, ...keysOnly } = consistent
    const { transport } = serving(() => json(keysOnly))
    const bare = { ...metadata, authorizationEndpoint: undefined, tokenEndpoint: undefined }
    expect(await bindSmartIssuer(issuer, bare, known, transport)).toEqual(
      unboundBecause('its openid-configuration names another authorization_endpoint'),
    )
    const { transport: again } = serving(() =>
      json({ ...keysOnly, authorization_endpoint: `${issuer}/authorize` }),
    )
    expect(
      await bindSmartIssuer(issuer, { ...metadata, tokenEndpoint: undefined }, known, again),
    ).toEqual(unboundBecause('its openid-configuration names another token_endpoint'))
  })

  it('leaves the issuer unbound when its openid-configuration is another issuer’s', async () => {
    const { transport } = serving(() => json({ ...consistent, issuer: 'https://evil.example' }))
    expect(await bindSmartIssuer(issuer, metadata, known, transport)).toEqual(
      unboundBecause('its openid-configuration names another issuer'),
    )
  })

  it.each([
    ['answers 404', () => new Response('not here', { status: 404 })],
    ['is not JSON', () => new Response('<html>', { headers: { 'content-type': 'text/html' } })],
  ])('leaves the issuer unbound when its openid-configuration %s', async (_case, route) => {
    const { transport } = serving(route)
    expect(await bindSmartIssuer(issuer, metadata, known, transport)).toEqual(
      unboundBecause('its openid-configuration could not be read'),
    )
  })
})

describe('SmartIssuerBinding (one client’s verdict)', () => {
  const binding = (transport: { fetch: ReturnType<typeof fakeServer>['fetch'] }) =>
    new SmartIssuerBinding(
      () => known,
      () => transport,
    )

  it('shares one request among concurrent callers and keeps a bound issuer', async () => {
    const { server, transport } = serving(() => json(consistent))
    const kept = binding(transport)
    const verdicts = await Promise.all([1, 2, 3].map(() => kept.of(issuer, metadata, undefined)))
    expect(verdicts.map((verdict) => verdict.bound)).toEqual([true, true, true])
    expect(await kept.of(issuer, metadata, undefined)).toBe(verdicts[0])
    expect(server.count(openIdUrl)).toBe(1)
  })

  it('decides an unbound issuer again next time (the document may be readable then)', async () => {
    let answer = () => new Response('', { status: 503 })
    const { server, transport } = serving(() => answer())
    const kept = binding(transport)
    expect((await kept.of(issuer, metadata, undefined)).bound).toBe(false)
    answer = () => json(consistent)
    expect((await kept.of(issuer, metadata, undefined)).bound).toBe(true)
    expect((await kept.of(issuer, metadata, undefined)).bound).toBe(true)
    expect(server.count(openIdUrl)).toBe(2)
  })

  it('ends only the wait of a caller whose signal fires, and asks nothing for one already aborted', async () => {
    const { server, transport } = serving(() => json(consistent))
    const kept = binding(transport)
    await expect(kept.of(issuer, metadata, AbortSignal.abort())).rejects.toSatisfy(
      (error: unknown) => error instanceof DiscoveryError && error.message.includes(openIdUrl),
    )
    expect(server.requests).toHaveLength(0)
    expect((await kept.of(issuer, metadata, new AbortController().signal)).bound).toBe(true)
  })
})

describe('openIdConfigurationDocument (OIDC Discovery §4.3)', () => {
  it('returns the document of exactly the issuer asked for', async () => {
    const { server, transport } = serving(() => json(consistent))
    await expect(openIdConfigurationDocument(issuer, transport)).resolves.toEqual(consistent)
    expect(server.requests.map((request) => request.url)).toEqual([openIdUrl])
  })

  it('refuses a document that cannot be read (jwks) or is another issuer’s (iss)', async () => {
    const unreadable = serving(() => new Response('', { status: 500 })).transport
    await expect(openIdConfigurationDocument(issuer, unreadable)).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof IdTokenError &&
        error.reason === 'jwks' &&
        error.message === `the OpenID configuration of ${issuer} could not be read` &&
        String((error.cause as Error | undefined)?.message).includes('OpenID discovery'),
    )
    const another = serving(() => json({ ...consistent, issuer: `${issuer}/` })).transport
    await expect(openIdConfigurationDocument(issuer, another)).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof IdTokenError &&
        error.reason === 'iss' &&
        error.message === `the OpenID configuration at ${openIdUrl} is for another issuer`,
    )
  })
})
