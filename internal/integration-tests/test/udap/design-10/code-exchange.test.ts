/**
 * DESIGN §10: the code exchange, refresh and sessions of a UDAP client authenticate with a UDAP
 * authentication token; the trust inputs are optional once this client validated the metadata,
 * and a fresh client must bring them (validation is never skipped).
 */
import {
  AuthorizationError,
  Client,
  type FetchLike,
  FhirAuthError,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import { startUdapSandbox } from '@fhir-auth/sandbox'
import { describe, expect, it } from 'vitest'
import { expectCodeFlowAnt } from './support/authentication-token.js'
import {
  callbackFor,
  redirectUri,
  registeredClient,
  rejectionOf,
  trustOf,
  udapClient,
  useCodeSandbox,
} from './support/context.js'

const probe = useCodeSandbox()

const tokenEndpoint = () => probe.sandbox.endpoints.token

describe.each(['b2b', 'b2c'])('flow %s: code exchange and refresh (DESIGN §10)', (flow) => {
  it.each(['rsa2048', 'p256', 'p384'] as const)(
    '%s key: completeAuthorization, session.refresh and refreshToken each send a conformant AnT',
    async (keyType) => {
      const { client, clientId } = await registeredClient(probe.sandbox, { flow, keyType })
      const store = memoryStore()
      const begun = await client.beginAuthorization({ ...trustOf(probe.sandbox.trust), store })
      const callback = await callbackFor(probe.sandbox, begun)
      const since = probe.sandbox.authenticationTokens.length
      const session = await client.completeAuthorization(callback, { store })
      expect(session.tokens.accessToken.length).toBeGreaterThan(0)
      expect(session.tokens.idTokenClaims?.aud).toEqual(expect.anything())
      expectCodeFlowAnt(probe.sandbox.authenticationTokens[since], {
        grantType: 'authorization_code',
        clientId,
        tokenEndpoint: tokenEndpoint(),
      })

      const refreshed = await session.refresh()
      expect(refreshed.accessToken.length).toBeGreaterThan(0)
      expectCodeFlowAnt(probe.sandbox.authenticationTokens[since + 1], {
        grantType: 'refresh_token',
        clientId,
        tokenEndpoint: tokenEndpoint(),
      })

      const response = await client.refreshToken({ refreshToken: String(refreshed.refreshToken) })
      expect(typeof response.access_token).toBe('string')
      expectCodeFlowAnt(probe.sandbox.authenticationTokens[since + 2], {
        grantType: 'refresh_token',
        clientId,
        tokenEndpoint: tokenEndpoint(),
      })
    },
  )

  it('caller-kept launch: authorizationUrl then requestAccessToken without trust inputs (validated earlier)', async () => {
    const { client, clientId } = await registeredClient(probe.sandbox, {
      flow,
      scopes: ['user/*.rs', 'offline_access'],
    })
    const request = await client.authorizationUrl({ ...trustOf(probe.sandbox.trust) })
    const callback = new URL(await callbackFor(probe.sandbox, request))
    const since = probe.sandbox.authenticationTokens.length
    const response = await client.requestAccessToken({
      code: String(callback.searchParams.get('code')),
      codeVerifier: request.codeVerifier,
    })
    expect(typeof response.access_token).toBe('string')
    expectCodeFlowAnt(probe.sandbox.authenticationTokens[since], {
      grantType: 'authorization_code',
      clientId,
      tokenEndpoint: tokenEndpoint(),
    })
  })
})

describe('another process finishes the launch (DESIGN §10)', () => {
  async function begunElsewhere() {
    const { client, clientId, identity } = await registeredClient(probe.sandbox, { flow: 'b2c' })
    const store = memoryStore() // stands for a store shared by the two processes
    const begun = await client.beginAuthorization({ ...trustOf(probe.sandbox.trust), store })
    const callback = await callbackFor(probe.sandbox, begun)
    const fresh = udapClient(probe.sandbox, identity, { flow: 'b2c' }, { clientId })
    return { fresh, store, callback, clientId, begun }
  }

  it('a fresh client without trust inputs refuses completeAuthorization and sends no token request', async () => {
    const { fresh, store, callback } = await begunElsewhere()
    const tokenRequests = probe.sandbox.requestCounts.token
    const error = await rejectionOf(() => fresh.completeAuthorization(callback, { store }))
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(error).not.toBeInstanceOf(AuthorizationError)
    expect(probe.sandbox.requestCounts.token).toBe(tokenRequests)
  })

  it('a fresh client without trust inputs refuses requestAccessToken and refreshToken, no token request', async () => {
    const { fresh, callback, begun } = await begunElsewhere()
    const tokenRequests = probe.sandbox.requestCounts.token
    const code = String(new URL(callback).searchParams.get('code'))
    expect(
      await rejectionOf(() => fresh.requestAccessToken({ code, codeVerifier: 'x'.repeat(43) })),
    ).toBeInstanceOf(FhirAuthError)
    expect(await rejectionOf(() => fresh.refreshToken({ refreshToken: 'rt-123' }))).toBeInstanceOf(
      FhirAuthError,
    )
    expect(probe.sandbox.requestCounts.token).toBe(tokenRequests)
    expect(begun.state.length).toBeGreaterThan(0)
  })

  it('a fresh client given the trust inputs again completes, with a conformant AnT', async () => {
    const { fresh, store, callback, clientId } = await begunElsewhere()
    const since = probe.sandbox.authenticationTokens.length
    const session = await fresh.completeAuthorization(callback, {
      store,
      ...trustOf(probe.sandbox.trust),
    })
    expect(session.tokens.accessToken.length).toBeGreaterThan(0)
    expectCodeFlowAnt(probe.sandbox.authenticationTokens[since], {
      grantType: 'authorization_code',
      clientId,
      tokenEndpoint: tokenEndpoint(),
    })
    // The session's refresh reuses what was validated on completion.
    await session.refresh()
    expectCodeFlowAnt(probe.sandbox.authenticationTokens[since + 1], {
      grantType: 'refresh_token',
      clientId,
      tokenEndpoint: tokenEndpoint(),
    })
  })

  it('a fresh client given untrusted anchors refuses before any token request', async () => {
    const { fresh, store, callback } = await begunElsewhere()
    const other = await startUdapSandbox()
    try {
      const tokenRequests = probe.sandbox.requestCounts.token
      const error = await rejectionOf(() =>
        fresh.completeAuthorization(callback, { store, ...trustOf(other.trust) }),
      )
      expect(error).toBeInstanceOf(FhirAuthError)
      expect(probe.sandbox.requestCounts.token).toBe(tokenRequests)
    } finally {
      await other.close()
    }
  })

  it('a resumed session on a fresh client refreshes with the trust inputs given to resumeSession', async () => {
    const { fresh, store, callback, clientId, begun } = await begunElsewhere()
    const first = await fresh.completeAuthorization(callback, {
      store,
      ...trustOf(probe.sandbox.trust),
    })
    const another = new Client(fresh.config, {
      protocol: 'udap',
      flow: 'b2c',
      logger: silentLogger,
    })
    const resumed = another.resumeSession(first.tokens.serialize(), {
      ...trustOf(probe.sandbox.trust),
    })
    const since = probe.sandbox.authenticationTokens.length
    await resumed.refresh()
    expectCodeFlowAnt(probe.sandbox.authenticationTokens[since], {
      grantType: 'refresh_token',
      clientId,
      tokenEndpoint: tokenEndpoint(),
    })
    expect(begun.state.length).toBeGreaterThan(0)
  })
})

describe('the token endpoint is the signed one (DESIGN §10 with §5)', () => {
  it('an unsigned token_endpoint that differs from the signed metadata is never used', async () => {
    const decoy = `${probe.sandbox.origin}/decoy-token`
    const seen: string[] = []
    const rewriting: FetchLike = async (url, init) => {
      seen.push(`${init.method ?? 'GET'} ${url}`)
      const response = await fetch(url, init)
      if (!url.includes('/.well-known/udap')) return response
      const body = (await response.json()) as Record<string, unknown>
      return new Response(JSON.stringify({ ...body, token_endpoint: decoy }), {
        status: response.status,
        headers: { 'content-type': 'application/json' },
      })
    }
    const { client, clientId, identity } = await registeredClient(probe.sandbox, { flow: 'b2c' })
    const victim = udapClient(
      probe.sandbox,
      identity,
      { flow: 'b2c', fetch: rewriting },
      { clientId },
    )
    const store = memoryStore()
    const begun = await victim.beginAuthorization({ ...trustOf(probe.sandbox.trust), store })
    const since = probe.sandbox.authenticationTokens.length
    await victim.completeAuthorization(await callbackFor(probe.sandbox, begun), { store })
    expect(seen.filter((line) => line.includes('decoy-token'))).toEqual([])
    expectCodeFlowAnt(probe.sandbox.authenticationTokens[since], {
      grantType: 'authorization_code',
      clientId,
      tokenEndpoint: tokenEndpoint(),
    })
    expect(client.flow).toBe('b2c')
  })
})

describe('never a secret or an Authorization header (DESIGN §10)', () => {
  it('a clientSecret configured on a UDAP client is never sent', async () => {
    const { clientId, identity } = await registeredClient(probe.sandbox, { flow: 'b2c' })
    const withSecret = udapClient(
      probe.sandbox,
      identity,
      { flow: 'b2c' },
      { clientId, clientSecret: 'do-not-send-this-secret' },
    )
    const store = memoryStore()
    const begun = await withSecret.beginAuthorization({ ...trustOf(probe.sandbox.trust), store })
    const callback = await callbackFor(probe.sandbox, begun)
    const since = probe.sandbox.requests.length
    const tokensSince = probe.sandbox.authenticationTokens.length
    await withSecret.completeAuthorization(callback, { store })
    const sent = probe.sandbox.requests.slice(since)
    expect(JSON.stringify(sent)).not.toContain('do-not-send-this-secret')
    expectCodeFlowAnt(probe.sandbox.authenticationTokens[tokensSince], {
      grantType: 'authorization_code',
      clientId,
      tokenEndpoint: tokenEndpoint(),
    })
    expect(redirectUri).toContain('https://')
  })
})
