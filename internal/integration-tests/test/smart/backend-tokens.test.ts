/**
 * `client.backendTokens` (DESIGN §9) through `Client` against the real oidc-provider sandbox:
 * concurrent callers share one request and the token is reused; `minValiditySeconds` and the
 * injected clock decide when it is renewed; a response without `expires_in` is never reused;
 * `fetch` sends the token only under the FHIR base URL and renews it once on a 401;
 * `invalidate()`; handles with the same token identity share one entry. Token requests are
 * counted at the server.
 */
import { ConfigurationError, type KeyValueStore, memoryStore, TokenError } from '@fhir-auth/client'
import { decodeJwt } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import { backendClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})
afterEach(() => fixture.sandbox.setTokenEndpointHooks(undefined))
afterAll(async () => {
  await fixture?.sandbox.close()
})

const scopes = ['system/Patient.rs']
/** The sandbox's backend tokens live 300 s. */
const lifetimeSeconds = 300

const tokenRequests = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)
const patientReads = () =>
  fixture.sandbox.requests.filter((request) => request.path.startsWith('/fhir/Patient/'))

/**
 * A clock the test moves. It starts 290 s behind real time: the client signs its assertions with
 * it, the server judges them by real time (an assertion lives 300 s), so any renewal the tests
 * trigger stays behind real time and the server still accepts it.
 */
function clockBehindRealTime(startOffsetSeconds = -290) {
  let offsetMs = startOffsetSeconds * 1000
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000
    },
  }
}

/** A memory store that remembers the keys written, so a test can reach the stored token. */
function observedStore() {
  const inner = memoryStore()
  const written = new Set<string>()
  const store: KeyValueStore = {
    get: (key) => inner.get(key),
    set: (key, value, ttl) => {
      written.add(key)
      return inner.set(key, value, ttl)
    },
    delete: (key) => inner.delete(key),
    setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
  }
  const tokenKey = () => {
    const key = [...written].find((name) => name.startsWith('fhir-auth:backend-token:'))
    if (key === undefined) throw new Error('no token was stored')
    return key
  }
  return { store, inner, tokenKey }
}

describe('backendTokens against the SMART sandbox', () => {
  it('50 concurrent callers: one token request; the token is reused and reads data', async () => {
    const tokens = backendClient(fixture, 'ES384').backendTokens({ scopes })
    const before = tokenRequests().length
    const got = await Promise.all(Array.from({ length: 50 }, () => tokens.accessToken()))
    expect(new Set(got).size).toBe(1)
    expect(await tokens.accessToken()).toBe(got[0])
    expect(tokenRequests().length - before).toBe(1)
    expect(tokenRequests().at(-1)?.form?.scope).toBe('system/Patient.rs')
    const response = await tokens.fetch('Patient/patient-1')
    expect(response.status).toBe(200)
    expect(tokenRequests().length - before).toBe(1)
  })

  it('renews at expiresAt − minValiditySeconds (default 60) by the injected clock, which also signs', async () => {
    const clock = clockBehindRealTime()
    const tokens = backendClient(fixture, 'RS384', {}, { now: clock.now }).backendTokens({ scopes })
    const before = tokenRequests().length
    const first = await tokens.accessToken()
    const assertion = decodeJwt(tokenRequests().at(-1)?.form?.client_assertion as string)
    expect(Math.abs((assertion.iat as number) - clock.now().getTime() / 1000)).toBeLessThan(5)
    clock.advance(lifetimeSeconds - 60 - 1)
    expect(await tokens.accessToken()).toBe(first)
    expect(tokenRequests().length - before).toBe(1)
    clock.advance(2)
    const second = await tokens.accessToken()
    expect(second).not.toBe(first)
    expect(tokenRequests().length - before).toBe(2)
  })

  it('minValiditySeconds: 100 renews 100 s before expiry', async () => {
    const clock = clockBehindRealTime()
    const tokens = backendClient(fixture, 'ES384', {}, { now: clock.now }).backendTokens({
      scopes,
      minValiditySeconds: 100,
    })
    const before = tokenRequests().length
    const first = await tokens.accessToken()
    clock.advance(lifetimeSeconds - 100 - 1)
    expect(await tokens.accessToken()).toBe(first)
    clock.advance(2)
    expect(await tokens.accessToken()).not.toBe(first)
    expect(tokenRequests().length - before).toBe(2)
  })

  it('a response without expires_in is never reused; concurrent callers still share its request', async () => {
    fixture.sandbox.setTokenEndpointHooks({
      rewriteResponse: ({ expires_in: _dropped, ...body }) => body,
    })
    const tokens = backendClient(fixture, 'ES384').backendTokens({ scopes })
    const before = tokenRequests().length
    const together = await Promise.all(Array.from({ length: 10 }, () => tokens.accessToken()))
    expect(new Set(together).size).toBe(1)
    expect(tokenRequests().length - before).toBe(1)
    const one = await tokens.accessToken()
    const two = await tokens.accessToken()
    expect(new Set([together[0], one, two]).size).toBe(3)
    expect(tokenRequests().length - before).toBe(3)
  })

  it('fetch sends Bearer under the base URL only; anything else is refused before sending', async () => {
    const tokens = backendClient(fixture, 'ES384').backendTokens({ scopes })
    const token = await tokens.accessToken()
    fixture.sandbox.clearRequests()
    const response = await tokens.fetch(`${fixture.sandbox.fhirBaseUrl}/Patient/patient-2`)
    expect(response.status).toBe(200)
    expect(patientReads().map((read) => read.headers.authorization)).toEqual([`Bearer ${token}`])
    for (const outside of [
      `${fixture.sandbox.origin}/token/introspection`,
      `${fixture.sandbox.origin}/fhirX/Patient/1`,
      `${fixture.sandbox.fhirBaseUrl}/../token`,
      'https://evil.example/fhir/Patient/1',
      `http://user:pass@${new URL(fixture.sandbox.origin).host}/fhir/Patient/1`,
    ]) {
      const refusal = await tokens.fetch(outside).catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(ConfigurationError)
      expect(String(refusal)).not.toContain(token)
    }
    expect(fixture.sandbox.requests).toHaveLength(1)
  })

  it('a 401 to a token another process stored: dropped, renewed once, and the retry succeeds', async () => {
    const { store, inner, tokenKey } = observedStore()
    const tokens = backendClient(fixture, 'ES384').backendTokens({ scopes, store })
    await tokens.accessToken()
    // What a shared store can hold: a record another process wrote for a token since revoked.
    const record = JSON.parse((await inner.get(tokenKey())) as string)
    await inner.set(
      tokenKey(),
      JSON.stringify({ ...record, accessToken: 'revoked-elsewhere' }),
      300,
    )
    const other = backendClient(fixture, 'ES384').backendTokens({ scopes, store })
    fixture.sandbox.clearRequests()
    const response = await other.fetch('Patient/patient-3')
    expect(response.status).toBe(200)
    expect(patientReads().map((read) => read.headers.authorization)).toEqual([
      'Bearer revoked-elsewhere',
      expect.not.stringContaining('revoked-elsewhere'),
    ])
    expect(tokenRequests()).toHaveLength(1)
    const renewed = JSON.parse((await inner.get(tokenKey())) as string)
    expect(`Bearer ${renewed.accessToken}`).toBe(patientReads()[1]?.headers.authorization)
  })

  it('a server that refuses every token: exactly one renewal, then the 401 is handed back', async () => {
    let issued = 0
    fixture.sandbox.setTokenEndpointHooks({
      rewriteResponse: (body) => ({ ...body, access_token: `never-valid-${++issued}` }),
    })
    const tokens = backendClient(fixture, 'ES384').backendTokens({ scopes })
    fixture.sandbox.clearRequests()
    const response = await tokens.fetch('Patient/patient-1')
    expect(response.status).toBe(401)
    expect(patientReads()).toHaveLength(2)
    expect(tokenRequests()).toHaveLength(2)
  })

  it('invalidate() drops the token for every handle sharing the store', async () => {
    const store = memoryStore()
    const first = backendClient(fixture, 'ES384').backendTokens({ scopes, store })
    const second = backendClient(fixture, 'ES384').backendTokens({ scopes, store })
    const before = tokenRequests().length
    const token = await first.accessToken()
    expect(await second.accessToken()).toBe(token)
    await second.invalidate()
    const renewed = await first.accessToken()
    expect(renewed).not.toBe(token)
    expect(await second.accessToken()).toBe(renewed)
    expect(tokenRequests().length - before).toBe(2)
  })

  it('one entry per token identity: scopes in another order share it, other scopes do not', async () => {
    const client = backendClient(fixture, 'ES384')
    const before = tokenRequests().length
    const both = ['system/Patient.rs', 'system/*.rs']
    const [a, b, c] = await Promise.all([
      client.backendTokens({ scopes: both }).accessToken(),
      client.backendTokens({ scopes: [...both].reverse() }).accessToken(),
      client.backendTokens({ scopes }).accessToken(),
    ])
    expect(a).toBe(b)
    expect(c).not.toBe(a)
    expect(tokenRequests().length - before).toBe(2)
  })

  it('a refused token request is the typed TokenError, and the next call tries again', async () => {
    const tokens = backendClient(fixture, 'ES384').backendTokens({ scopes: ['system/*.cruds'] })
    const before = tokenRequests().length
    await expect(tokens.accessToken()).rejects.toSatisfy(
      (error: unknown) => error instanceof TokenError && error.error === 'invalid_scope',
    )
    await expect(tokens.accessToken()).rejects.toBeInstanceOf(TokenError)
    expect(tokenRequests().length - before).toBe(2)
  })
})
