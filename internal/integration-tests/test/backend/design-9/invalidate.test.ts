/** DESIGN §9 `tokens.invalidate()`: the next call asks again, in a shared store too. */
import { memoryStore } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { smartClient, smartServer } from './support/smart-token-server.js'

describe('DESIGN §9 tokens.invalidate', () => {
  it('drops the cached token: the next accessToken requests a new one', async () => {
    const server = smartServer()
    const tokens = smartClient(server).backendTokens()
    expect(await tokens.accessToken()).toBe('token-1')
    await tokens.invalidate()
    expect(await tokens.accessToken()).toBe('token-2')
    expect(server.tokenRequests()).toBe(2)
  })

  it('drops the token from the shared store: another client on that store asks again', async () => {
    const server = smartServer()
    const store = memoryStore()
    const one = smartClient(server).backendTokens({ store })
    const two = smartClient(server).backendTokens({ store })
    expect(await one.accessToken()).toBe('token-1')
    expect(await two.accessToken()).toBe('token-1')
    await one.invalidate()
    expect(await two.accessToken()).toBe('token-2')
  })

  it('invalidate with nothing cached resolves and sends nothing', async () => {
    const server = smartServer()
    const tokens = smartClient(server).backendTokens()
    await expect(tokens.invalidate()).resolves.toBeUndefined()
    expect(server.tokenRequests()).toBe(0)
  })

  it('invalidate during a token request neither hangs nor breaks the waiting callers', async () => {
    const server = smartServer()
    const tokens = smartClient(server).backendTokens()
    server.hold()
    const pending = Promise.all([tokens.accessToken(), tokens.accessToken()])
    const invalidated = tokens.invalidate()
    const invalidatedAgain = tokens.invalidate()
    server.release()
    await expect(invalidated).resolves.toBeUndefined()
    await expect(invalidatedAgain).resolves.toBeUndefined()
    const results = await pending
    expect(results.every((token) => /^token-\d+$/.test(token))).toBe(true)
    const next = await tokens.accessToken()
    expect(next).toMatch(/^token-\d+$/)
    expect(server.tokenRequests()).toBeLessThanOrEqual(3)
  })
})
