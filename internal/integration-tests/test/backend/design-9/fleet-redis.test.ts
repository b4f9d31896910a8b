/**
 * DESIGN §9: a fleet on one shared store (real redis-server, several `Client`s each with its own
 * connection) shares one token per expiry window; a crashed lock holder costs one more request.
 */
import type { KeyValueStore } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { describe, expect, it } from 'vitest'
import { useRedis } from './support/redis.js'
import { smartClient, smartServer, testClock } from './support/smart-token-server.js'

const redis = useRedis()

describe('DESIGN §9 a fleet on Redis', () => {
  it('8 clients × 25 concurrent callers → one token request, the same token everywhere', async () => {
    const server = smartServer({ expiresIn: 300 })
    const prefix = `fleet-a-${Math.random()}:`
    const fleet = await Promise.all(
      Array.from({ length: 8 }, async () =>
        smartClient(server).backendTokens({ store: redisStore(await redis.connect(), { prefix }) }),
      ),
    )
    server.hold()
    const calls = fleet.flatMap((tokens) => Array.from({ length: 25 }, () => tokens.accessToken()))
    // let every process reach the lock before the holder's answer comes
    await new Promise((resolve) => setTimeout(resolve, 200))
    server.release()
    const results = await Promise.all(calls)
    expect(new Set(results)).toEqual(new Set(['token-1']))
    expect(server.tokenRequests()).toBe(1)
  })

  it('after the expiry window the fleet requests exactly one more token', async () => {
    const server = smartServer({ expiresIn: 300 })
    const now = testClock()
    const prefix = `fleet-b-${Math.random()}:`
    const fleet = await Promise.all(
      Array.from({ length: 5 }, async () =>
        smartClient(server, { now }).backendTokens({
          store: redisStore(await redis.connect(), { prefix }),
        }),
      ),
    )
    await Promise.all(fleet.map((tokens) => tokens.accessToken()))
    expect(server.tokenRequests()).toBe(1)
    now.advance(250)
    const renewed = await Promise.all(
      fleet.flatMap((tokens) => [tokens.accessToken(), tokens.accessToken()]),
    )
    expect(new Set(renewed)).toEqual(new Set(['token-2']))
    expect(server.tokenRequests()).toBe(2)
  })

  it('a lock holder that dies mid-request costs one more request, not one per process', async () => {
    const server = smartServer({ expiresIn: 300 })
    const prefix = `fleet-c-${Math.random()}:`
    const timeoutMs = 1_500
    // The "crashed" process: it wins the lock, its token request never gets an answer, and
    // every store call after the lock hangs, so it never frees the lock.
    let holding = false
    const real = redisStore(await redis.connect(), { prefix })
    const crashing: KeyValueStore = {
      get: (key) => (holding ? new Promise(() => undefined) : real.get(key)),
      set: (key, value, ttl) =>
        holding ? new Promise(() => undefined) : real.set(key, value, ttl),
      delete: (key) => (holding ? new Promise(() => undefined) : real.delete(key)),
      setIfAbsent: async (key, value, ttl) => {
        if (holding) return new Promise(() => undefined)
        const won = await real.setIfAbsent(key, value, ttl)
        if (won) holding = true
        return won
      },
    }
    server.hold()
    const crashed = smartClient(server, { timeoutMs }).backendTokens({ store: crashing })
    const crashedCall = crashed.accessToken().catch((error: unknown) => error)
    // wait (bounded) until the crashed process holds the lock and has sent its request
    for (let i = 0; i < 200 && server.tokenRequests() === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(server.tokenRequests()).toBe(1)
    expect(holding).toBe(true)
    // the crashed process's request never answers; the survivors' endpoint answers at once
    // (same client id, scopes and token endpoint URL, so the same cache entry)
    const survivorsServer = smartServer({ expiresIn: 300 }, { tokenPrefix: 'survivor-' })
    const survivors = await Promise.all(
      Array.from({ length: 4 }, async () =>
        smartClient(survivorsServer, { timeoutMs }).backendTokens({
          store: redisStore(await redis.connect(), { prefix }),
        }),
      ),
    )
    const results = await Promise.all(survivors.map((tokens) => tokens.accessToken()))
    expect(new Set(results)).toEqual(new Set(['survivor-1']))
    expect(survivorsServer.tokenRequests()).toBe(1)
    server.release()
    await crashedCall
  })
})
