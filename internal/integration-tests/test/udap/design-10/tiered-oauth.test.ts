/**
 * DESIGN §10, Tiered OAuth end to end against a real data holder and a real IdP: `udap` and
 * `idp` on the wire, `invalid_idp` as an AuthorizationError, the identity-scopes-only client
 * whose `baseUrl` is the IdP, and ID tokens checked with the IdP's openid-configuration keys.
 */
import { AuthorizationError, type Client, IdTokenError, memoryStore } from '@fhir-auth/client'
import { startTieredOAuthSandboxes, type TieredOAuthSandboxes } from '@fhir-auth/sandbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectCodeFlowAnt } from './support/authentication-token.js'
import {
  callbackFor,
  redirectUri,
  registeredClient,
  rejectionOf,
  trustOf,
} from './support/context.js'

let pair: TieredOAuthSandboxes
beforeAll(async () => {
  pair = await startTieredOAuthSandboxes()
}, 60_000)
afterAll(async () => {
  await pair?.close()
})
afterEach(() => {
  pair.dataHolder.setHostile(undefined)
  pair.identityProvider.setHostile(undefined)
})

async function tieredApp(scopes: readonly string[] = ['openid', 'user/*.rs']) {
  return registeredClient(pair.dataHolder, {
    flow: 'tiered_oauth',
    scopes,
    registeredScope: 'openid udap user/*.rs offline_access',
  })
}

/** Begins a request at the data holder that names the IdP (`idp`), kept in a fresh store. */
async function beginWithIdp(client: Client) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({
    ...trustOf(pair.dataHolder.trust),
    idp: pair.identityProvider.issuer,
    store,
  })
  return { store, begun }
}

/** A client asking for identity scopes only, registered at the IdP (its own data holder). */
function identityOnlyApp() {
  return registeredClient(pair.identityProvider, {
    flow: 'tiered_oauth',
    scopes: ['openid', 'udap'],
    registeredScope: 'openid udap',
    grantTypes: ['authorization_code'],
  })
}

describe('Tiered OAuth at a data holder (DESIGN §10)', () => {
  it('sends udap and idp, the data holder logs in at the IdP, the app completes with a conformant AnT', async () => {
    const { dataHolder, identityProvider } = pair
    const { client, clientId } = await tieredApp()
    const { store, begun } = await beginWithIdp(client)
    const callback = await callbackFor(dataHolder, begun)
    const request = dataHolder.authorizationRequests.at(-1)
    expect(request?.parameters.idp).toBe(identityProvider.issuer)
    expect(request?.parameters.scope?.split(' ')).toContain('udap')
    expect(request?.outcome).toBe('identity-provider')
    expect(dataHolder.tieredLogins.at(-1)?.outcome).toBe('code')
    const since = dataHolder.authenticationTokens.length
    const session = await client.completeAuthorization(callback, { store })
    expect(session.tokens.accessToken.length).toBeGreaterThan(0)
    expect(session.tokens.idTokenClaims?.iss).toBe(dataHolder.issuer)
    expectCodeFlowAnt(dataHolder.authenticationTokens[since], {
      grantType: 'authorization_code',
      clientId,
      tokenEndpoint: dataHolder.endpoints.token,
    })
  })

  it('a callback with error=invalid_idp is an AuthorizationError with that error, no token request', async () => {
    const { dataHolder } = pair
    const { client } = await tieredApp()
    dataHolder.setHostile('invalid-idp')
    const { store, begun } = await beginWithIdp(client)
    const callback = await callbackFor(dataHolder, begun)
    expect(new URL(callback).searchParams.get('error')).toBe('invalid_idp')
    const tokenRequests = dataHolder.requestCounts.token
    const error = await rejectionOf(() => client.completeAuthorization(callback, { store }))
    expect(error).toBeInstanceOf(AuthorizationError)
    expect((error as AuthorizationError).error).toBe('invalid_idp')
    expect((error as AuthorizationError).state).toBe(begun.state)
    expect(dataHolder.requestCounts.token).toBe(tokenRequests)
  })

  it('error=invalid_idp together with a code: still the AuthorizationError, the code is never exchanged', async () => {
    const { dataHolder } = pair
    const { client } = await tieredApp()
    const { store, begun } = await beginWithIdp(client)
    const callback = `${redirectUri}?error=invalid_idp&error_description=no&code=abc123&state=${encodeURIComponent(begun.state)}`
    const tokenRequests = dataHolder.requestCounts.token
    const error = await rejectionOf(() => client.completeAuthorization(callback, { store }))
    expect(error).toBeInstanceOf(AuthorizationError)
    expect((error as AuthorizationError).error).toBe('invalid_idp')
    expect((error as AuthorizationError).errorDescription).toBe('no')
    expect(dataHolder.requestCounts.token).toBe(tokenRequests)
  })

  it('invalid_idp with caller-kept values (no store) is the same AuthorizationError', async () => {
    const { dataHolder, identityProvider } = pair
    const { client } = await tieredApp()
    const begun = await client.authorizationUrl({
      ...trustOf(dataHolder.trust),
      idp: identityProvider.issuer,
    })
    const callback = `${redirectUri}?error=invalid_idp&state=${encodeURIComponent(begun.state)}`
    const error = await rejectionOf(() =>
      client.completeAuthorization(callback, {
        state: begun.state,
        codeVerifier: begun.codeVerifier,
        ...(begun.nonce === undefined ? {} : { nonce: begun.nonce }),
      }),
    )
    expect(error).toBeInstanceOf(AuthorizationError)
    expect((error as AuthorizationError).error).toBe('invalid_idp')
  })
})

describe('identity scopes only: this client is the data holder, baseUrl is the IdP (DESIGN §10)', () => {
  it('authorizes at the IdP without idp, completes, and validates the ID token with the IdP keys', async () => {
    const { identityProvider } = pair
    const { client, clientId } = await identityOnlyApp()
    const store = memoryStore()
    const begun = await client.beginAuthorization({ ...trustOf(identityProvider.trust), store })
    const sent = Object.fromEntries(new URL(begun.authUrl).searchParams)
    expect(sent).not.toHaveProperty('idp')
    expect(sent.scope?.split(' ').sort()).toEqual(['openid', 'udap'])
    expect(typeof sent.nonce).toBe('string')
    const callback = await callbackFor(identityProvider, begun)
    const resourcesBefore = identityProvider.requestCounts.resource
    const since = identityProvider.authenticationTokens.length
    const session = await client.completeAuthorization(callback, { store })
    expect(session.tokens.idTokenClaims).toMatchObject({
      iss: identityProvider.issuer,
      nonce: sent.nonce,
    })
    expect([session.tokens.idTokenClaims?.aud].flat()).toContain(clientId)
    // The keys came from the IdP (openid-configuration and its jwks_uri).
    expect(identityProvider.requestCounts.resource).toBeGreaterThan(resourcesBefore)
    const paths = identityProvider.requests.map((r) => r.path)
    expect(paths).toContain(
      new URL(String(identityProvider.endpoints.openidConfiguration)).pathname,
    )
    expectCodeFlowAnt(identityProvider.authenticationTokens[since], {
      grantType: 'authorization_code',
      clientId,
      tokenEndpoint: identityProvider.endpoints.token,
    })
  })

  it.each([
    ['id-token-wrong-nonce', 'nonce'],
    ['id-token-wrong-aud', 'aud'],
  ] as const)(
    'an ID token from the IdP with %s is an IdTokenError (%s)',
    async (variant, reason) => {
      const { identityProvider } = pair
      const { client } = await identityOnlyApp()
      const store = memoryStore()
      const begun = await client.beginAuthorization({ ...trustOf(identityProvider.trust), store })
      identityProvider.setHostile(variant)
      const callback = await callbackFor(identityProvider, begun)
      const error = await rejectionOf(() => client.completeAuthorization(callback, { store }))
      expect(error).toBeInstanceOf(IdTokenError)
      expect((error as IdTokenError).reason).toBe(reason)
    },
  )
})
