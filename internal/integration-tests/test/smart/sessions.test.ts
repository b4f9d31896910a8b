/**
 * DESIGN §8 end to end against the real oidc-provider sandbox: a launch kept in a store and
 * finished from its callback URL, the callback checks in their order (and no token request when
 * one fails), the session that refreshes and sends the token only under the FHIR base URL,
 * persistence, and ID token validation with the sandbox's keys.
 */
import {
  AuthorizationError,
  type Client,
  type KeyValueStore,
  memoryStore,
  type Session,
  TokenError,
  TokenSet,
} from '@fhir-auth/client'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import { appClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture({ standalonePatient: 'patient-7' })
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

beforeEach(() => fixture.sandbox.clearRequests())

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

/** Begins with `store`, plays the user through the sandbox, returns the callback URL. */
async function launch(client: Client, store?: KeyValueStore, method: 'get' | 'post' = 'get') {
  const begun = await client.beginAuthorization({ store, method })
  const result = await fixture.sandbox.authorize(
    begun.params === undefined
      ? { url: begun.authUrl }
      : { endpoint: begun.authUrl, params: begun.params },
  )
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return { begun, callbackUrl: result.redirectUrl.href }
}

const tokenRequests = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token).length

describe('beginAuthorization / completeAuthorization with a store', () => {
  it.each(['get', 'post'] as const)(
    'finishes a %s launch into a session with typed tokens, verified identity and patient data',
    async (method) => {
      const store = memoryStore()
      const client = appClient(fixture, 'symmetric')
      const { begun, callbackUrl } = await launch(client, store, method)
      expect(begun).not.toHaveProperty('codeVerifier')
      const authorize = requestsTo(fixture.sandbox, fixture.sandbox.endpoints.authorization)[0]
      const sent = method === 'get' ? authorize?.query : authorize?.form
      expect(sent?.nonce).toMatch(/^[\w-]{43,}$/)

      const session = await client.completeAuthorization(callbackUrl, { store })
      const { tokens } = session
      expect(tokens).toBeInstanceOf(TokenSet)
      const patient: string | undefined = tokens.patient
      expect(patient).toBe('patient-7')
      expect(tokens.scopes).toContain('openid')
      expect(tokens.expiresAt?.getTime()).toBeGreaterThan(Date.now())
      expect(tokens.idTokenClaims?.sub).toBe('practitioner-1')
      expect(tokens.idTokenClaims?.nonce).toBe(sent?.nonce)
      expect(tokens.fhirUser).toBe(`${fixture.sandbox.fhirBaseUrl}/Practitioner/practitioner-1`)
      expect((await session.fetch('Patient/patient-7')).status).toBe(200)
    },
  )

  it('keeps many launches apart: two begun, finished in the other order', async () => {
    const store = memoryStore()
    const client = appClient(fixture, 'public')
    const first = await launch(client, store)
    const second = await launch(client, store)
    const later = await client.completeAuthorization(second.callbackUrl, { store })
    const earlier = await client.completeAuthorization(first.callbackUrl, { store })
    expect(later.tokens.accessToken).not.toBe(earlier.tokens.accessToken)
  })

  it('uses a launch once: a replayed callback is state_mismatch and sends no token request', async () => {
    const store = memoryStore()
    const client = appClient(fixture, 'public')
    const { callbackUrl } = await launch(client, store)
    await client.completeAuthorization(callbackUrl, { store })
    const before = tokenRequests()
    await expect(client.completeAuthorization(callbackUrl, { store })).rejects.toSatisfy(
      (error: unknown) => error instanceof AuthorizationError && error.error === 'state_mismatch',
    )
    expect(tokenRequests()).toBe(before)
  })

  it('refuses a launch begun with another server’s client (one store for many EHRs)', async () => {
    const store = memoryStore()
    const { callbackUrl } = await launch(appClient(fixture, 'public'), store)
    const other = appClient(fixture, 'public', { issuer: 'https://other-ehr.example/fhir' })
    await expect(other.completeAuthorization(callbackUrl, { store })).rejects.toSatisfy(
      (error: unknown) => error instanceof AuthorizationError && error.error === 'iss_mismatch',
    )
    expect(tokenRequests()).toBe(0)
  })
})

describe('the callback checks, in order, before any token request', () => {
  it('an error parameter first: access_denied with the server fields and the state', async () => {
    const store = memoryStore()
    const client = appClient(fixture, 'public')
    const begun = await client.beginAuthorization({ store })
    const result = await fixture.sandbox.authorize({ url: begun.authUrl }, { decision: 'deny' })
    await expect(
      client.completeAuthorization(result.redirectUrl?.href ?? '', { store }),
    ).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof AuthorizationError &&
        error.error === 'access_denied' &&
        error.state === begun.state &&
        typeof error.errorDescription === 'string',
    )
    expect(tokenRequests()).toBe(0)
  })

  it('then state, then RFC 9207 iss, then code', async () => {
    const store = memoryStore()
    const client = appClient(fixture, 'public')
    const { callbackUrl } = await launch(client, store)
    const url = new URL(callbackUrl)
    const expectRefusal = async (callback: URL, error: string) =>
      expect(client.completeAuthorization(callback.href, { store })).rejects.toSatisfy(
        (caught: unknown) => caught instanceof AuthorizationError && caught.error === error,
      )
    const unknownState = new URL(url)
    unknownState.searchParams.set('state', 'not-a-kept-state')
    await expectRefusal(unknownState, 'state_mismatch')
    const wrongIss = new URL(url)
    wrongIss.searchParams.set('iss', 'https://evil.example')
    await expectRefusal(wrongIss, 'iss_mismatch')
    expect(tokenRequests()).toBe(0)

    // The record was taken by the iss check: begin again for the missing iss and the missing code.
    const again = await launch(client, store)
    const noIss = new URL(again.callbackUrl)
    noIss.searchParams.delete('iss')
    await expectRefusal(noIss, 'iss_mismatch')
    const third = await launch(client, store)
    const noCode = new URL(third.callbackUrl)
    noCode.searchParams.delete('code')
    await expectRefusal(noCode, 'missing_code')
    expect(tokenRequests()).toBe(0)
  })
})

describe('completeAuthorization with values the caller kept', () => {
  it('needs the state, codeVerifier and nonce that beginAuthorization returned without a store', async () => {
    const client = appClient(fixture, 'RS384')
    const { begun, callbackUrl } = await launch(client)
    expect(typeof begun.codeVerifier).toBe('string')
    expect(typeof begun.nonce).toBe('string')
    const wrong = client.completeAuthorization(callbackUrl, {
      state: 'another-state',
      codeVerifier: begun.codeVerifier,
    })
    await expect(wrong).rejects.toSatisfy(
      (error: unknown) => error instanceof AuthorizationError && error.error === 'state_mismatch',
    )
    const session = await client.completeAuthorization(callbackUrl, {
      state: begun.state,
      codeVerifier: begun.codeVerifier,
      nonce: begun.nonce,
    })
    expect(session.tokens.idTokenClaims?.nonce).toBe(begun.nonce)
  })
})

describe('sessions over time', () => {
  async function signedIn(client: Client, onTokens?: (tokens: TokenSet) => Promise<void>) {
    const store = memoryStore()
    const { callbackUrl } = await launch(client, store)
    return client.completeAuthorization(callbackUrl, { store, onTokens })
  }

  it('refreshes once for 50 concurrent callers near expiry, rotates, validates the new ID token, awaits onTokens', async () => {
    const clock = movableClock()
    const persisted: string[] = []
    const client = appClient(fixture, 'public', {}, { now: clock.now })
    const session = await signedIn(client, async (tokens) => {
      persisted.push(tokens.serialize())
    })
    const first = session.tokens
    clock.advance(3600 - 30)
    const before = tokenRequests()
    const tokens = await Promise.all(Array.from({ length: 50 }, () => session.accessToken()))
    expect(new Set(tokens).size).toBe(1)
    expect(tokens[0]).not.toBe(first.accessToken)
    expect(tokenRequests() - before).toBe(1)
    const refreshRequest = requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token).at(-1)
    expect(refreshRequest?.form?.grant_type).toBe('refresh_token')
    expect(refreshRequest?.form?.refresh_token === first.refreshToken).toBe(true)
    expect(session.tokens.refreshToken).not.toBe(first.refreshToken)
    expect(session.tokens.idTokenClaims?.sub).toBe('practitioner-1')
    expect(persisted).toHaveLength(1)
    expect(TokenSet.deserialize(persisted[0] as string)?.accessToken).toBe(tokens[0])
  })

  it('an access token the server refuses: fetch gets 401, refreshes once, and the retry succeeds', async () => {
    const client = appClient(fixture, 'public')
    const signedInSession = await signedIn(client)
    const { refreshToken, scopes } = signedInSession.tokens
    const session = client.resumeSession({
      access_token: 'not-a-token-the-server-issued',
      refresh_token: refreshToken as string,
      expires_in: 3600,
      scope: scopes.join(' '),
    })
    const before = tokenRequests()
    const response = await session.fetch('Patient/patient-7')
    expect(response.status).toBe(200)
    expect(tokenRequests() - before).toBe(1)
    expect(session.tokens.accessToken).not.toBe('not-a-token-the-server-issued')
  })

  it('a revoked grant: the 401 leads to a refresh the server refuses, a TokenError', async () => {
    const client = appClient(fixture, 'public')
    const session = await signedIn(client)
    const revoked = await fetch(fixture.sandbox.endpoints.revocation, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: session.tokens.accessToken,
        token_type_hint: 'access_token',
        client_id: 'public-app',
      }),
    })
    expect(revoked.status).toBe(200)
    await expect(session.fetch('Patient/patient-7')).rejects.toSatisfy(
      (error: unknown) => error instanceof TokenError && error.error === 'invalid_grant',
    )
  })

  it('sends nothing to a URL outside the FHIR base URL', async () => {
    const session = await signedIn(appClient(fixture, 'public'))
    fixture.sandbox.clearRequests()
    await expect(session.fetch(`${fixture.sandbox.origin}/token/introspection`)).rejects.toThrow(
      /sent only under the FHIR baseUrl/,
    )
    await expect(session.fetch('https://evil.example/fhir/Patient/1')).rejects.toThrow(
      /sent only under the FHIR baseUrl/,
    )
    expect(fixture.sandbox.requests).toHaveLength(0)
  })

  it('resumes in another client from serialize(), and refreshes there', async () => {
    const clock = movableClock()
    const original = await signedIn(appClient(fixture, 'public'))
    const saved = original.tokens.serialize()
    const elsewhere = appClient(fixture, 'public', {}, { now: clock.now })
    const resumed: Session = elsewhere.resumeSession(saved)
    expect(resumed.tokens.accessToken).toBe(original.tokens.accessToken)
    expect((await resumed.fetch('Patient/patient-7')).status).toBe(200)
    clock.advance(3600)
    expect(await resumed.accessToken()).not.toBe(original.tokens.accessToken)
    expect(JSON.stringify(resumed)).not.toContain(resumed.tokens.accessToken)
  })

  it('an expired session without a refresh token is a TokenError, not a dead token', async () => {
    const clock = movableClock()
    const client = appClient(
      fixture,
      'public',
      { scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'] },
      { now: clock.now },
    )
    const session = await signedIn(client)
    expect(session.tokens.refreshToken).toBeUndefined()
    clock.advance(3600)
    await expect(session.accessToken()).rejects.toThrow(TokenError)
    fixture.sandbox.clearRequests()
    await expect(session.fetch('Patient/patient-7')).rejects.toThrow(TokenError)
    expect(fixture.sandbox.requests).toHaveLength(0)
  })
})

describe('validateIdToken', () => {
  it('returns the claims of the sandbox’s ID token, and checks nonce and max age when asked', async () => {
    const client = appClient(fixture, 'public')
    const { begun, callbackUrl } = await launch(client)
    const session = await client.completeAuthorization(callbackUrl, {
      state: begun.state,
      codeVerifier: begun.codeVerifier,
      nonce: begun.nonce,
    })
    const idToken = session.tokens.idToken as string
    const claims = await client.validateIdToken(idToken, { nonce: begun.nonce })
    expect(claims.iss).toBe(fixture.sandbox.issuer)
    expect(claims.aud).toBe('public-app')
    await expect(client.validateIdToken(idToken, { nonce: 'other' })).rejects.toMatchObject({
      reason: 'nonce',
    })
  })
})
