/**
 * The rules of DESIGN §8 that `sessions.test.ts` and `id-token-failures.test.ts` leave out, each
 * through `Client` against the oidc-provider sandbox: what a launch record holds and how long,
 * a store that refuses or lacks `take`, a launch that expired by the client's clock, where the
 * ID token keys come from and which algorithm is allowed, the ID token of a refresh, the
 * `TokenSet` read from the server's real response (and from a response a layer in front of the
 * server makes hostile: numeric-string `expires_in`, members of the wrong JSON type), and
 * `session.fetch` against the FHIR endpoint.
 */
import { inspect } from 'node:util'
import {
  AuthorizationError,
  type Client,
  ConfigurationError,
  type FetchLike,
  IdTokenError,
  type KeyValueStore,
  memoryStore,
  StoreError,
} from '@fhir-auth/client'
import { computeCodeChallenge } from '@fhir-auth/core'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import { appClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture({ standalonePatient: 'patient-9' })
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

beforeEach(() => fixture.sandbox.clearRequests())

afterEach(() => {
  fixture.sandbox.setDiscoveryOverride(undefined)
  fixture.sandbox.setIdTokenVariant(undefined)
})

const tokenRequests = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)
const jwksRequests = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.jwks).length

/** A clock the test moves; starts at the real time (the sandbox judges tokens by it). */
function movableClock() {
  let offsetMs = 0
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000
    },
  }
}

/** A memory store that records every `set` (key, parsed value, time to live). */
function recordingStore() {
  const store = memoryStore()
  const sets: { key: string; value: Record<string, unknown>; ttlSeconds: number }[] = []
  const recording: KeyValueStore = {
    ...store,
    set: async (key, value, ttlSeconds) => {
      sets.push({ key, value: JSON.parse(value), ttlSeconds })
      await store.set(key, value, ttlSeconds)
    },
  }
  return { store: recording, sets }
}

/** Begins, plays the user through the sandbox, returns the callback URL. */
async function callbackOf(
  client: Client,
  store: KeyValueStore,
  customScopes?: readonly string[],
): Promise<string> {
  const begun = await client.beginAuthorization({ store, customScopes })
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return result.redirectUrl.href
}

async function signIn(client: Client) {
  const store = memoryStore()
  return client.completeAuthorization(await callbackOf(client, store), { store })
}

/**
 * A layer in front of the server: the client's `fetch` rewrites the JSON of the token
 * endpoint's successful responses, the way a non-compliant server would send them.
 */
function rewritingTokenResponses(
  rewrite: (body: Record<string, unknown>) => Record<string, unknown>,
): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init)
    if (url !== fixture.sandbox.endpoints.token || response.status !== 200) return response
    const body = rewrite((await response.json()) as Record<string, unknown>)
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    })
  }
}

describe('beginAuthorization keeps the launch', () => {
  it('keeps state, verifier, nonce, redirect URI, scopes, issuer, base URL and time under fhir-auth:launch:<hash> for 600 s', async () => {
    const { store, sets } = recordingStore()
    const client = appClient(fixture, 'public')
    const before = Date.now()
    const begun = await client.beginAuthorization({ store })
    expect(sets).toHaveLength(1)
    const [{ key, value, ttlSeconds }] = sets as [(typeof sets)[number]]
    expect(key).toMatch(/^fhir-auth:launch:[\w-]{43}$/)
    expect(key).not.toContain(begun.state)
    expect(ttlSeconds).toBe(600)
    const query = new URL(begun.authUrl).searchParams
    expect(value).toEqual({
      state: begun.state,
      codeVerifier: expect.any(String),
      nonce: query.get('nonce'),
      redirectUri: query.get('redirect_uri'),
      scopes: query.get('scope')?.split(' '),
      issuer: fixture.sandbox.fhirBaseUrl,
      // The client that began it: a directory routes the callback by it.
      baseUrl: fixture.sandbox.fhirBaseUrl,
      createdAt: expect.any(Number),
    })
    expect(value.createdAt as number).toBeGreaterThanOrEqual(before)
    expect(query.get('state')).toBe(begun.state)
    // The kept verifier is the one whose challenge went to the server.
    expect(query.get('code_challenge')).toBe(
      await computeCodeChallenge(value.codeVerifier as string),
    )
  })

  it('sends a fresh nonce of at least 128 bits with openid, and none without it', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const nonces = await Promise.all(
      [1, 2, 3].map(async () => {
        const { authUrl } = await client.beginAuthorization({ store })
        return new URL(authUrl).searchParams.get('nonce') ?? ''
      }),
    )
    expect(new Set(nonces).size).toBe(3)
    for (const nonce of nonces)
      expect(Buffer.from(nonce, 'base64url').length).toBeGreaterThanOrEqual(16)
    const withoutOpenId = await client.beginAuthorization({
      store,
      customScopes: ['launch/patient', 'patient/*.rs'],
    })
    expect(new URL(withoutOpenId.authUrl).searchParams.has('nonce')).toBe(false)
    expect(withoutOpenId).not.toHaveProperty('nonce')
  })

  it('without openid: no ID token comes back and none is validated', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callbackUrl = await callbackOf(client, store, ['launch/patient', 'patient/*.rs'])
    const session = await client.completeAuthorization(callbackUrl, { store })
    expect(session.tokens.idToken).toBeUndefined()
    expect(session.tokens.idTokenClaims).toBeUndefined()
    expect(session.tokens.patient).toBe('patient-9')
    expect(jwksRequests()).toBe(0)
  })

  it('a store that refuses the launch is a StoreError: there is no URL to redirect to', async () => {
    const store: KeyValueStore = {
      ...memoryStore(),
      set: async () => {
        throw new RangeError('quota exceeded')
      },
    }
    const error = await appClient(fixture, 'public')
      .beginAuthorization({ store })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StoreError)
    expect(error).toMatchObject({
      operation: 'set',
      message: expect.stringContaining('RangeError'),
    })
  })

  it('a store without take (get, then delete) finishes a launch once', async () => {
    const { take: _take, ...withoutTake } = memoryStore()
    const store: KeyValueStore = withoutTake
    const client = appClient(fixture, 'public')
    const callbackUrl = await callbackOf(client, store)
    expect((await client.completeAuthorization(callbackUrl, { store })).tokens.patient).toBe(
      'patient-9',
    )
    await expect(client.completeAuthorization(callbackUrl, { store })).rejects.toMatchObject({
      error: 'state_mismatch',
    })
  })
})

describe('completeAuthorization refuses before any token request', () => {
  it('a launch older than 600 s by the client’s clock: state_mismatch', async () => {
    const clock = movableClock()
    const client = appClient(fixture, 'public', {}, { now: clock.now })
    const store = memoryStore()
    const callbackUrl = await callbackOf(client, store)
    clock.advance(601)
    await expect(client.completeAuthorization(callbackUrl, { store })).rejects.toSatisfy(
      (error: unknown) => error instanceof AuthorizationError && error.error === 'state_mismatch',
    )
    expect(tokenRequests()).toHaveLength(0)
  })

  it('a callback without state: state_mismatch; an error with a forged state: the server’s error', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callback = new URL(await callbackOf(client, store))
    callback.searchParams.delete('state')
    await expect(client.completeAuthorization(callback, { store })).rejects.toMatchObject({
      error: 'state_mismatch',
    })
    const forged = new URL(callback)
    forged.searchParams.set('state', 'forged')
    forged.searchParams.set('error', 'access_denied')
    forged.searchParams.set('error_uri', 'https://ehr.example/errors/denied')
    await expect(client.completeAuthorization(forged, { store })).rejects.toMatchObject({
      error: 'access_denied',
      errorUri: 'https://ehr.example/errors/denied',
      state: 'forged',
    })
    expect(tokenRequests()).toHaveLength(0)
  })

  it('a signal already aborted leaves the launch in the store and sends nothing', async () => {
    const client = appClient(fixture, 'public')
    const store = memoryStore()
    const callbackUrl = await callbackOf(client, store)
    fixture.sandbox.clearRequests()
    await expect(
      client.completeAuthorization(callbackUrl, { store, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ cause: { reason: 'aborted' } })
    expect(fixture.sandbox.requests).toHaveLength(0)
    expect((await client.completeAuthorization(callbackUrl, { store })).tokens.patient).toBe(
      'patient-9',
    )
  })
})

describe('ID token keys and algorithms', () => {
  it('takes the keys from the SMART configuration’s jwks_uri once, and keeps them', async () => {
    const client = appClient(fixture, 'public')
    await signIn(client)
    await signIn(client)
    expect(jwksRequests()).toBe(1)
    // The sandbox's issuer (its origin) is neither configured nor the FHIR base URL: its
    // openid-configuration, read once, binds it to the server (ADR 0013).
    expect(
      requestsTo(fixture.sandbox, `${fixture.sandbox.issuer}/.well-known/openid-configuration`),
    ).toHaveLength(1)
  })

  it('without jwks_uri there, finds them through {issuer}/.well-known/openid-configuration', async () => {
    fixture.sandbox.setDiscoveryOverride({
      document: (document) => {
        const { jwks_uri: _removed, ...rest } = document
        return rest
      },
    })
    const session = await signIn(appClient(fixture, 'public'))
    expect(session.tokens.idTokenClaims?.iss).toBe(fixture.sandbox.issuer)
    const paths = fixture.sandbox.requests.map((request) => request.path)
    expect(paths).toContain('/.well-known/openid-configuration')
    expect(paths.indexOf('/jwks')).toBeGreaterThan(
      paths.indexOf('/.well-known/openid-configuration'),
    )
  })

  it('RS256 when the server advertises no ID token algorithm; refused when it advertises others only', async () => {
    fixture.sandbox.setDiscoveryOverride({
      document: (document) => {
        const { id_token_signing_alg_values_supported: _removed, ...rest } = document
        return rest
      },
    })
    expect((await signIn(appClient(fixture, 'public'))).tokens.idTokenClaims?.sub).toBe(
      'practitioner-1',
    )
    fixture.sandbox.setDiscoveryOverride({
      document: (document) => ({ ...document, id_token_signing_alg_values_supported: ['ES256'] }),
    })
    await expect(signIn(appClient(fixture, 'public'))).rejects.toSatisfy(
      (error: unknown) => error instanceof IdTokenError && error.reason === 'alg',
    )
  })

  it('session.refresh validates the new ID token; a refused one is dropped and the session goes on', async () => {
    // Issue 24, finding 10: a refreshed ID token that fails for any reason but sub never ends a
    // session. It keeps the new access and refresh tokens and its earlier verified identity.
    const logger = createCapturingLogger()
    const session = await signIn(appClient(fixture, 'public', {}, { logger }))
    const before = session.tokens
    fixture.sandbox.setIdTokenVariant('wrong-aud')
    const refreshed = await session.refresh()
    expect(refreshed.accessToken).not.toBe(before.accessToken)
    expect(refreshed.refreshToken).not.toBe(before.refreshToken)
    expect(refreshed.idToken).toBe(before.idToken)
    expect(refreshed.idTokenClaims).toEqual(before.idTokenClaims)
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ reason: 'aud' }) }),
    ])
    // The rotated refresh token works: the sandbox refuses a spent one.
    fixture.sandbox.setIdTokenVariant(undefined)
    expect((await session.refresh()).idTokenClaims?.sub).toBe(before.idTokenClaims?.sub)
  })

  it('validateIdToken with maxAgeSeconds needs auth_time, which this server sends only when asked', async () => {
    const client = appClient(fixture, 'public')
    const idToken = (await signIn(client)).tokens.idToken as string
    const claims = await client.validateIdToken(idToken)
    expect(claims.auth_time).toBeUndefined()
    await expect(client.validateIdToken(idToken, { maxAgeSeconds: 3600 })).rejects.toSatisfy(
      (error: unknown) => error instanceof IdTokenError && error.reason === 'auth_time',
    )
  })
})

describe('the TokenSet read from the server’s response', () => {
  it('granted scopes, expiry from expires_in, typed context; the raw response passes isTokenResponseValid', async () => {
    const client = appClient(fixture, 'public')
    const before = Date.now()
    const { tokens } = await signIn(client)
    expect(tokens.scopes).toEqual(String(tokens.raw.scope).split(' '))
    expect(tokens.expiresAt?.getTime()).toBeGreaterThanOrEqual(before + 3600_000)
    expect(tokens.expiresAt?.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000)
    expect(tokens.tokenType).toBe('Bearer')
    expect(tokens.needPatientBanner).toBe(true)
    expect(tokens.smartStyleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    const raw: unknown = tokens.raw
    expect(client.isTokenResponseValid(raw)).toBe(true)
  })

  it('a numeric-string expires_in is a number; members of the wrong JSON type are left out, one warning each', async () => {
    const logger = createCapturingLogger()
    const fetch = rewritingTokenResponses((body) => ({
      ...body,
      expires_in: '3600',
      patient: 42,
      need_patient_banner: 'yes',
      fhirContext: { reference: 'Patient/1' },
    }))
    const client = appClient(fixture, 'public', {}, { fetch, logger })
    const before = Date.now()
    const { tokens } = await signIn(client)
    expect(tokens.expiresAt?.getTime()).toBeGreaterThanOrEqual(before + 3600_000)
    expect(tokens.patient).toBeUndefined()
    expect(tokens.needPatientBanner).toBeUndefined()
    expect(tokens.fhirContext).toEqual([])
    const warnings = logger.messages('warn')
    for (const member of ['patient', 'need_patient_banner', 'fhirContext']) {
      expect(warnings.filter((warning) => warning.includes(` ${member} `))).toHaveLength(1)
    }
    logger.clear()
    expect(client.isTokenResponseValid(tokens.raw)).toBe(false)
    expect(logger.messages('warn')).toHaveLength(4)
  })

  it('no scope in the response: the scopes asked for; fhirUser in the response wins over the claim', async () => {
    const fetch = rewritingTokenResponses(({ scope: _scope, ...body }) => ({
      ...body,
      fhirUser: 'Practitioner/from-the-response',
    }))
    const client = appClient(fixture, 'public', {}, { fetch })
    const { tokens } = await signIn(client)
    expect(tokens.scopes).toEqual(client.config.scopes)
    expect(tokens.fhirUser).toBe('Practitioner/from-the-response')
    expect(tokens.idTokenClaims?.fhirUser).toBe(
      `${fixture.sandbox.fhirBaseUrl}/Practitioner/practitioner-1`,
    )
  })

  it('printing a session, its tokens or the client shows no token', async () => {
    const client = appClient(fixture, 'symmetric')
    const session = await signIn(client)
    const { accessToken, refreshToken, idToken } = session.tokens
    const printed = [
      JSON.stringify(session),
      JSON.stringify(session.tokens),
      inspect(session, { depth: 10, showHidden: true }),
      inspect(session.tokens, { depth: 10, showHidden: true }),
      inspect(client, { depth: 10, showHidden: true }),
      `${session}`,
    ].join('\n')
    for (const secret of [accessToken, refreshToken, idToken, fixture.symmetricSecret]) {
      expect(secret?.length).toBeGreaterThan(10)
      expect(printed).not.toContain(secret)
    }
  })
})

describe('the session against the FHIR server', () => {
  it('sends Bearer with the current token to relative and absolute URLs under the base, and hands back any status', async () => {
    const session = await signIn(appClient(fixture, 'public'))
    fixture.sandbox.clearRequests()
    expect((await session.fetch('Patient/patient-9')).status).toBe(200)
    expect((await session.fetch(`${fixture.sandbox.fhirBaseUrl}/Patient/patient-9`)).status).toBe(
      200,
    )
    // Another patient than the grant's: the server's 403 comes back as it is, not as an error.
    const forbidden = await session.fetch('Patient/someone-else')
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toMatchObject({ resourceType: 'OperationOutcome' })
    for (const request of fixture.sandbox.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${session.tokens.accessToken}`)
    }
    await expect(session.fetch('../token')).rejects.toThrow(ConfigurationError)
    expect(fixture.sandbox.requests).toHaveLength(3)
  })

  it('accessToken refreshes first within minValiditySeconds, not before', async () => {
    const session = await signIn(appClient(fixture, 'public'))
    const first = session.tokens.accessToken
    fixture.sandbox.clearRequests()
    expect(await session.accessToken()).toBe(first)
    expect(await session.accessToken({ minValiditySeconds: 3000 })).toBe(first)
    expect(tokenRequests()).toHaveLength(0)
    expect(await session.accessToken({ minValiditySeconds: 4000 })).not.toBe(first)
    expect(tokenRequests()).toHaveLength(1)
  })

  it('session.refresh({ scopes }) narrows the grant (RFC 6749 §6)', async () => {
    const session = await signIn(appClient(fixture, 'public'))
    const narrower = ['patient/*.rs', 'offline_access']
    const tokens = await session.refresh({ scopes: narrower })
    expect(tokenRequests().at(-1)?.form?.scope).toBe(narrower.join(' '))
    expect(tokens.scopes).toEqual(narrower)
    expect(session.tokens).toBe(tokens)
  })
})
