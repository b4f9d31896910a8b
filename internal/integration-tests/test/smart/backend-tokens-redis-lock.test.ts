/**
 * Backend tokens kept in Redis (issue 25): `accessToken()` resolves only once the lock it took is
 * freed. An app that closes its Redis connection right after its last call — as
 * examples/backend-services does — leaves no lock key behind and sees no "store failed delete"
 * warning (the release was fire-and-forget, and ran into the closed connection). Through `Client`
 * against the oidc-provider sandbox and a real `redis-server` on a free loopback port.
 */
import { redisStore } from '@fhir-auth/store-redis'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture
let redisServer: RedisServer

beforeAll(async () => {
  ;[fixture, redisServer] = await Promise.all([startSmartFixture(), startRedisServer()])
}, 60_000)
afterAll(async () => {
  await Promise.all([fixture?.sandbox.close(), redisServer?.stop()])
})

/** A connection as an app opens one (errors after close are the app's to see, not ours). */
async function connect() {
  const redis = createClient({ url: redisServer.url })
  redis.on('error', () => undefined)
  return redis.connect()
}

/** Lets anything the library left running after the call reach the logger. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300))
}

describe('backendTokens over Redis: the lock is freed before accessToken() resolves', () => {
  it('closing the connection right after the call leaves no lock key and logs no warning', async () => {
    const prefix = `lock-release-${Date.now()}:`
    const logger = createCapturingLogger()
    const redis = await connect()
    const tokens = backendClient(fixture, 'ES384', {}, { logger }).backendTokens({
      scopes: ['system/Patient.rs'],
      store: redisStore(redis, { prefix }),
    })
    expect(await tokens.accessToken()).toEqual(expect.any(String))
    await redis.quit()
    await settle()
    expect(logger.messages('warn')).toEqual([])
    const inspector = await connect()
    try {
      const keys = await inspector.keys(`${prefix}*`)
      expect(keys.filter((key) => key.includes('backend-token-lock'))).toEqual([])
      expect(keys.filter((key) => key.includes('backend-token:'))).toHaveLength(1)
    } finally {
      await inspector.quit()
    }
  })

  it('right after accessToken() resolves the lock key is gone, and a second handle reuses the token', async () => {
    const prefix = `lock-reuse-${Date.now()}:`
    const redis = await connect()
    try {
      const store = redisStore(redis, { prefix })
      const first = backendClient(fixture, 'ES384').backendTokens({
        scopes: ['system/Patient.rs'],
        store,
      })
      const token = await first.accessToken()
      expect(await redis.keys(`${prefix}*backend-token-lock*`)).toEqual([])
      const second = backendClient(fixture, 'ES384').backendTokens({
        scopes: ['system/Patient.rs'],
        store,
      })
      expect(await second.accessToken()).toBe(token)
    } finally {
      await redis.quit()
    }
  })
})
