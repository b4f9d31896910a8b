/**
 * DESIGN §9: the handle's members, and how long one token is reused
 * ("cached until expiresAt − minValiditySeconds (default 60)"; no `expires_in` → used once).
 */
import { describe, expect, it } from 'vitest'
import { smartClient, smartServer, testClock } from './support/smart-token-server.js'

describe('DESIGN §9 handle and expiry window', () => {
  it('a handle has accessToken, fetch and invalidate', () => {
    const tokens = smartClient(smartServer()).backendTokens()
    expect(typeof tokens.accessToken).toBe('function')
    expect(typeof tokens.fetch).toBe('function')
    expect(typeof tokens.invalidate).toBe('function')
  })

  it('reuses a token until expiresAt − 60 s by default, then requests a new one', async () => {
    const server = smartServer({ expiresIn: 300 })
    const now = testClock()
    const tokens = smartClient(server, { now }).backendTokens()
    expect(await tokens.accessToken()).toBe('token-1')
    now.advance(239)
    expect(await tokens.accessToken()).toBe('token-1')
    expect(server.tokenRequests()).toBe(1)
    now.advance(2) // 241 s: inside the last 60 s
    expect(await tokens.accessToken()).toBe('token-2')
    expect(server.tokenRequests()).toBe(2)
  })

  it('honours minValiditySeconds: 10 (renews only in the last 10 s)', async () => {
    const server = smartServer({ expiresIn: 300 })
    const now = testClock()
    const tokens = smartClient(server, { now }).backendTokens({ minValiditySeconds: 10 })
    await tokens.accessToken()
    now.advance(289)
    expect(await tokens.accessToken()).toBe('token-1')
    now.advance(2)
    expect(await tokens.accessToken()).toBe('token-2')
  })

  it('minValiditySeconds: 0 uses the token up to its expiry', async () => {
    const server = smartServer({ expiresIn: 300 })
    const now = testClock()
    const tokens = smartClient(server, { now }).backendTokens({ minValiditySeconds: 0 })
    await tokens.accessToken()
    now.advance(299)
    expect(await tokens.accessToken()).toBe('token-1')
    now.advance(2)
    expect(await tokens.accessToken()).toBe('token-2')
  })

  it('a large minValiditySeconds still renews at expiresAt − minValiditySeconds (expires_in 600, min 300)', async () => {
    const server = smartServer({ expiresIn: 600 })
    const now = testClock()
    const tokens = smartClient(server, { now }).backendTokens({ minValiditySeconds: 300 })
    await tokens.accessToken()
    now.advance(299)
    expect(await tokens.accessToken()).toBe('token-1')
    now.advance(2)
    expect(await tokens.accessToken()).toBe('token-2')
  })

  it('renews at expiresAt − minValiditySeconds also for a token shorter than twice that window (expires_in 100: renewed after 40 s)', async () => {
    const server = smartServer({ expiresIn: 100 })
    const now = testClock()
    const tokens = smartClient(server, { now }).backendTokens()
    await tokens.accessToken()
    now.advance(45) // expiresAt − 60 s was 5 s ago
    expect(await tokens.accessToken()).toBe('token-2')
  })

  it('a numeric-string expires_in counts as the number (§8)', async () => {
    const server = smartServer({ expiresIn: '300' })
    const now = testClock()
    const tokens = smartClient(server, { now }).backendTokens()
    await tokens.accessToken()
    now.advance(200)
    expect(await tokens.accessToken()).toBe('token-1')
    expect(server.tokenRequests()).toBe(1)
  })

  it('a response without expires_in is used once: the next call requests again', async () => {
    const server = smartServer({ expiresIn: undefined })
    const tokens = smartClient(server).backendTokens()
    expect(await tokens.accessToken()).toBe('token-1')
    expect(await tokens.accessToken()).toBe('token-2')
    expect(await tokens.accessToken()).toBe('token-3')
    expect(server.tokenRequests()).toBe(3)
  })

  it('a response without expires_in is not put in a shared store either', async () => {
    const server = smartServer({ expiresIn: undefined })
    const { memoryStore } = await import('@fhir-auth/client')
    const store = memoryStore()
    const first = smartClient(server).backendTokens({ store })
    const second = smartClient(server).backendTokens({ store })
    expect(await first.accessToken()).toBe('token-1')
    expect(await second.accessToken()).toBe('token-2')
  })

  it('concurrent callers in one process share one token request', async () => {
    const server = smartServer({ expiresIn: 300 })
    const tokens = smartClient(server).backendTokens()
    server.hold()
    const calls = Array.from({ length: 25 }, () => tokens.accessToken())
    server.release()
    const results = await Promise.all(calls)
    expect(new Set(results)).toEqual(new Set(['token-1']))
    expect(server.tokenRequests()).toBe(1)
  })

  it('concurrent callers share one request even when the answer has no expires_in', async () => {
    const server = smartServer({ expiresIn: undefined })
    const tokens = smartClient(server).backendTokens()
    server.hold()
    const calls = Array.from({ length: 10 }, () => tokens.accessToken())
    server.release()
    expect(new Set(await Promise.all(calls))).toEqual(new Set(['token-1']))
    expect(server.tokenRequests()).toBe(1)
  })

  it('concurrent callers on two handles of one client (same scopes) share one request', async () => {
    const server = smartServer({ expiresIn: 300 })
    const client = smartClient(server)
    const a = client.backendTokens({ scopes: ['system/Patient.rs'] })
    const b = client.backendTokens({ scopes: ['system/Patient.rs'] })
    server.hold()
    const calls = [a.accessToken(), b.accessToken(), a.accessToken(), b.accessToken()]
    server.release()
    expect(new Set(await Promise.all(calls))).toEqual(new Set(['token-1']))
    expect(server.tokenRequests()).toBe(1)
  })

  it('a failed token request is a TokenError for every sharing caller and is not cached', async () => {
    const server = smartServer({ expiresIn: 300, status: 401 })
    const { TokenError } = await import('@fhir-auth/client')
    const tokens = smartClient(server).backendTokens()
    const results = await Promise.allSettled([tokens.accessToken(), tokens.accessToken()])
    for (const result of results) {
      expect(result.status).toBe('rejected')
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(TokenError)
    }
    server.answer = { expiresIn: 300 }
    expect(await tokens.accessToken()).toMatch(/^token-/)
  })
})
