/**
 * Issue 24, findings 8 and 11–13, against the real oidc-provider sandbox, which rotates refresh
 * tokens and revokes the whole grant when a spent one is used again: refreshes for different
 * scopes run one after the other, each with the refresh token the one before rotated; a failed
 * `onTokens` gets the rotated tokens again; a serialized session resumes only on a client for
 * the same server and client. And before any session: a caller-kept completion with `openid`
 * needs its `nonce`, or the ID token's could not be compared (OIDC Core §3.1.3.7 item 11).
 */
import {
  type Client,
  ConfigurationError,
  memoryStore,
  StoreError,
  TokenSet,
  type TokensListener,
} from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import {
  appClient,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture({ standalonePatient: 'patient-3' })
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

beforeEach(() => fixture.sandbox.clearRequests())

const tokenForms = () =>
  requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token).map((request) => request.form ?? {})

async function signIn(client: Client, onTokens?: TokensListener) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return client.completeAuthorization(result.redirectUrl.href, { store, onTokens })
}

describe('refreshes for different scopes on a rotating server (finding 12)', () => {
  it('a narrower refresh waits for the broader one in flight, then sends its own with the rotated token', async () => {
    const session = await signIn(appClient(fixture, 'public'))
    const narrower = ['patient/*.rs', 'offline_access']
    const [broad, narrow] = await Promise.all([
      session.refresh(),
      session.refresh({ scopes: narrower }),
    ])
    const refreshes = tokenForms().filter((form) => form.grant_type === 'refresh_token')
    expect(refreshes).toHaveLength(2)
    expect(refreshes[0]).not.toHaveProperty('scope')
    expect(refreshes[1]?.scope).toBe(narrower.join(' '))
    expect(refreshes[1]?.refresh_token).toBe(broad.refreshToken)
    expect(narrow.scopes).toEqual(narrower)
    expect(broad.scopes).toEqual(expect.arrayContaining([...standaloneScopes]))
    // The grant is alive: the sandbox would have revoked it had a spent token been sent.
    expect((await session.fetch('Patient/patient-3')).status).toBe(200)
  })
})

describe('onTokens redelivered (finding 11)', () => {
  it('the rotated tokens reach the store on the next call, and resume there', async () => {
    const persisted: string[] = []
    let failing = true
    const session = await signIn(appClient(fixture, 'symmetric'), (tokens) => {
      if (failing) throw new Error('store down')
      persisted.push(tokens.serialize())
    })
    await failureOf(session.refresh(), StoreError)
    failing = false
    await session.accessToken()
    expect(persisted).toHaveLength(1)
    // What was persisted holds the rotated refresh token: a resumed session refreshes with it.
    const resumed = appClient(fixture, 'symmetric').resumeSession(persisted[0] as string)
    expect(resumed.tokens.refreshToken).toBe(session.tokens.refreshToken)
    await resumed.refresh()
    expect((await resumed.fetch('Patient/patient-3')).status).toBe(200)
  })
})

describe('serialized sessions are bound (finding 13)', () => {
  it('another client id, base URL or token endpoint refuses it and sends nothing', async () => {
    const serialized = (await signIn(appClient(fixture, 'public'))).tokens.serialize()
    fixture.sandbox.clearRequests()
    for (const other of [
      appClient(fixture, 'symmetric'),
      appClient(fixture, 'public', { baseUrl: `${fixture.sandbox.origin}/other-fhir` }),
      appClient(fixture, 'public', { tokenEndpoint: `${fixture.sandbox.origin}/other-token` }),
    ]) {
      const error = (() => {
        try {
          other.resumeSession(serialized)
        } catch (thrown) {
          return thrown
        }
        return undefined
      })()
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('tokens')
      expect((error as Error).message).toContain('serialized for another server or client')
    }
    expect(fixture.sandbox.requests).toEqual([])
    // The same server and client resume it, with the identity of its ID token.
    const resumed = appClient(fixture, 'public').resumeSession(serialized)
    expect(resumed.tokens.idTokenClaims?.sub).toBe(
      TokenSet.deserialize(serialized)?.idTokenClaims?.sub,
    )
    expect(resumed.tokens.idTokenClaims?.sub).toBe('practitioner-1')
    await resumed.refresh()
  })
})

describe('a caller-kept completion with openid needs its nonce (finding 8)', () => {
  it('without it: a ConfigurationError on nonce and the code unsent; with it, the same callback completes', async () => {
    expect(standaloneScopes).toContain('openid')
    const client = appClient(fixture, 'public')
    // Kept by the caller, not in a store: the app holds state, codeVerifier and nonce itself.
    const begun = await client.beginAuthorization()
    const { state, nonce } = begun
    const codeVerifier = String(begun.codeVerifier)
    expect(nonce).toBeTypeOf('string')
    const result = await fixture.sandbox.authorize({ url: begun.authUrl })
    const callback = result.redirectUrl?.href ?? ''
    expect(result.code).toBeTypeOf('string')
    const tokenRequests = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)

    const error = await failureOf(
      client.completeAuthorization(callback, { state, codeVerifier }),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe('nonce')
    expect(tokenRequests()).toHaveLength(0)

    const session = await client.completeAuthorization(callback, { state, codeVerifier, nonce })
    expect(session.tokens.idTokenClaims?.nonce).toBe(nonce)
    expect(tokenRequests()).toHaveLength(1)
  })
})
