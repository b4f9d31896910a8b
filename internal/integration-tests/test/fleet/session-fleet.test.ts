/**
 * Issue 26's fleet figures, counted on the server: 4 Node processes open one session id from
 * `client.sessions({ store: redisStore(…) })` on a real `redis-server` (values sealed) and make
 * 10 concurrent `session.fetch` calls each, against the oidc-provider sandbox, which rotates
 * refresh tokens and revokes the whole grant when a spent one comes back. Over three expiry
 * windows (moved by the workers' injected clocks): exactly one refresh per window, no
 * `invalid_grant`, no failed FHIR request. A holder SIGKILLed while its refresh hangs costs one
 * more refresh, and the session survives. Counts, not timings.
 */
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SmartFixture, startSmartFixture } from '../smart/support/smart-fixture.js'
import type { Fleet } from './support/fleet.js'
import { hangFirstTokenRequest } from './support/hang-token-request.js'
import { refreshRequests, startSessionFleet } from './support/session-fleet-setup.js'

const fleetSize = 4
const concurrentFetches = 10
/** The lock's time to live is this, rounded up to seconds: a dead holder costs about that long. */
const timeoutMs = 8_000
/**
 * Access tokens live 120 s and are renewed 60 s before they expire (the default
 * `minValiditySeconds`): each window moves the workers' clocks 70 s further, past the renewal
 * point of the tokens the window before obtained (refreshing needs no clock-bound assertion:
 * the app is a public client).
 */
const lifetimeSeconds = 120
const windowStepMs = 70_000

let fixture: SmartFixture
let redis: RedisServer
let fleet: Fleet
let redisClient: Awaited<ReturnType<ReturnType<typeof createClient>['connect']>>

beforeAll(async () => {
  ;[fixture, redis] = await Promise.all([
    startSmartFixture({
      standalonePatient: 'patient-3',
      accessTokenLifetimeSeconds: lifetimeSeconds,
    }),
    startRedisServer(),
  ])
  redisClient = await createClient({ url: redis.url }).connect()
  fleet = await startSessionFleet(
    fixture,
    { client: redisClient, url: redis.url },
    { size: fleetSize, timeoutMs },
  )
}, 120_000)

afterAll(async () => {
  fixture?.sandbox.setTokenEndpointHooks(undefined)
  await fleet?.close()
  await redisClient?.close()
  await Promise.all([fixture?.sandbox.close(), redis?.stop()])
})

/** Warnings that would mean the lock or the store failed the fleet. */
const fleetWarnings = ['sessions.lock_wait_exceeded', 'sessions.store_unavailable']

describe(`${fleetSize} processes × ${concurrentFetches} concurrent session.fetch on one session id`, () => {
  let lastToken: string | undefined

  for (const window of [1, 2, 3]) {
    it(`expiry window ${window}: exactly 1 refresh, every FHIR request succeeds`, async () => {
      const before = refreshRequests(fixture)
      const reports = await fleet.run({
        calls: concurrentFetches,
        concurrency: concurrentFetches,
        clockOffsetMs: window * windowStepMs,
      })
      expect(refreshRequests(fixture) - before).toBe(1)
      expect(reports).toHaveLength(fleetSize)
      for (const report of reports) {
        // An invalid_grant would be a failed refresh here, and so a failed call.
        expect(report.failures).toEqual([])
        expect(report.succeeded).toBe(concurrentFetches)
        expect(report.warnings.filter((event) => fleetWarnings.includes(event))).toEqual([])
      }
      const tokens = new Set(reports.flatMap((report) => report.tokens))
      expect(tokens.size).toBe(1)
      expect([...tokens][0]).not.toBe(lastToken)
      lastToken = [...tokens][0]
    }, 60_000)
  }

  it('the holder killed while its refresh hangs: 1 extra refresh, and the session survives', async () => {
    const before = refreshRequests(fixture)
    // The first refresh of this window never gets an answer (the provider never sees it).
    const held = hangFirstTokenRequest(
      fixture.sandbox,
      (request) => request.form?.grant_type === 'refresh_token',
    )
    const running = fleet.run({
      calls: concurrentFetches,
      concurrency: concurrentFetches,
      clockOffsetMs: 4 * windowStepMs,
    })
    const holderIndex = await held
    await fleet.kill(holderIndex)
    const reports = await running
    fixture.sandbox.setTokenEndpointHooks(undefined)

    expect(refreshRequests(fixture) - before).toBe(2)
    expect(reports).toHaveLength(fleetSize - 1)
    for (const report of reports) {
      expect(report.failures).toEqual([])
      expect(report.succeeded).toBe(concurrentFetches)
      // Nobody gave up waiting and refreshed on its own: the lock's expiry handed over.
      expect(report.warnings.filter((event) => fleetWarnings.includes(event))).toEqual([])
    }
    const tokens = new Set(reports.flatMap((report) => report.tokens))
    expect(tokens.size).toBe(1)
    expect([...tokens][0]).not.toBe(lastToken)

    // The session is alive in the next window too: the rotated refresh token was kept.
    const after = refreshRequests(fixture)
    const next = await fleet.run({
      calls: concurrentFetches,
      concurrency: concurrentFetches,
      clockOffsetMs: 5 * windowStepMs,
    })
    expect(refreshRequests(fixture) - after).toBe(1)
    expect(next.every((report) => report.failures.length === 0)).toBe(true)
  }, 60_000)
})
