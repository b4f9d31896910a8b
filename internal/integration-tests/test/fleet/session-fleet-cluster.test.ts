/**
 * Issue 26 on a three-node Redis Cluster (`redis-server --cluster-enabled yes`, joined with
 * `redis-cli --cluster create`): production fleets run clusters, and `redisStore` keeps to
 * single-key commands, so a session's tokens and its lock (two keys, in any slots) work there.
 * 4 processes open one session id through `createCluster` clients: one refresh per expiry
 * window against the rotating oidc-provider sandbox, every FHIR request served. Counts only.
 */
import { type RedisCluster, startRedisCluster } from '@fhir-auth/test-utils/redis-server'
import { createCluster } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SmartFixture, startSmartFixture } from '../smart/support/smart-fixture.js'
import type { Fleet } from './support/fleet.js'
import { refreshRequests, startSessionFleet } from './support/session-fleet-setup.js'

const fleetSize = 4
const concurrentFetches = 10
const windowStepMs = 70_000

let fixture: SmartFixture
let cluster: RedisCluster
let fleet: Fleet
let parentRedis: Awaited<ReturnType<ReturnType<typeof createCluster>['connect']>>

beforeAll(async () => {
  ;[fixture, cluster] = await Promise.all([
    startSmartFixture({ standalonePatient: 'patient-3', accessTokenLifetimeSeconds: 120 }),
    startRedisCluster(3),
  ])
  parentRedis = await createCluster({
    rootNodes: cluster.urls.map((url) => ({ url })),
  }).connect()
  fleet = await startSessionFleet(
    fixture,
    { client: parentRedis, url: cluster.urls[0] as string, clusterUrls: cluster.urls },
    { size: fleetSize, timeoutMs: 8_000 },
  )
}, 120_000)

afterAll(async () => {
  await fleet?.close()
  await parentRedis?.close()
  await Promise.all([fixture?.sandbox.close(), cluster?.stop()])
})

describe(`${fleetSize} processes sharing one session through a three-node Redis Cluster`, () => {
  for (const window of [1, 2]) {
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
        expect(report.failures).toEqual([])
        expect(report.succeeded).toBe(concurrentFetches)
      }
      expect(new Set(reports.flatMap((report) => report.tokens)).size).toBe(1)
    }, 60_000)
  }
})
