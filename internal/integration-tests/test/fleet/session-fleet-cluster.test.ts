/**
 * Issue 26 on a three-node Redis Cluster (`redis-server --cluster-enabled yes`, joined with
 * `redis-cli --cluster create`): production fleets run clusters, and `redisStore` keeps to
 * single-key commands, so a session's tokens and its lock (two keys, in any slots) work there.
 * 4 processes open one session id through `createCluster` clients: one refresh per expiry
 * window against the rotating oidc-provider sandbox, every FHIR request served. Counts only.
 */
import { randomBytes } from 'node:crypto'
import { type Client, memoryStore } from '@fhir-auth/client'
import { sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { redisStore } from '@fhir-auth/store-redis'
import { type RedisCluster, startRedisCluster } from '@fhir-auth/test-utils/redis-server'
import { createCluster } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appClient,
  clientIds,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from '../smart/support/smart-fixture.js'
import { type Fleet, startFleet } from './support/fleet.js'
import type { SessionWorkerSetup } from './support/fleet-messages.js'

const fleetSize = 4
const concurrentFetches = 10
const windowStepMs = 70_000

let fixture: SmartFixture
let cluster: RedisCluster
let fleet: Fleet
let parentRedis: Awaited<ReturnType<ReturnType<typeof createCluster>['connect']>>

async function signIn(client: Client) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return client.completeAuthorization(result.redirectUrl.href, { store })
}

beforeAll(async () => {
  ;[fixture, cluster] = await Promise.all([
    startSmartFixture({ standalonePatient: 'patient-3', accessTokenLifetimeSeconds: 120 }),
    startRedisCluster(3),
  ])
  const encryptionKeyHex = randomBytes(32).toString('hex')
  parentRedis = await createCluster({
    rootNodes: cluster.urls.map((url) => ({ url })),
  }).connect()
  const client = appClient(fixture, 'public')
  const store = redisStore(parentRedis, { encryptionKey: Buffer.from(encryptionKeyHex, 'hex') })
  const sessionId = await client.sessions({ store }).save(await signIn(client))
  fleet = await startFleet<SessionWorkerSetup>(
    fleetSize,
    {
      fhirBaseUrl: fixture.sandbox.fhirBaseUrl,
      clientId: clientIds.public,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: standaloneScopes,
      redisUrl: cluster.urls[0] as string,
      clusterUrls: cluster.urls,
      encryptionKeyHex,
      timeoutMs: 8_000,
      sessionId,
      resource: 'Patient/patient-3',
    },
    new URL('./support/session-fleet-worker.ts', import.meta.url).pathname,
  )
}, 120_000)

afterAll(async () => {
  await fleet?.close()
  await parentRedis?.close()
  await Promise.all([fixture?.sandbox.close(), cluster?.stop()])
})

function refreshRequests(): number {
  return fixture.sandbox.requests.filter(
    (request) => request.path === '/token' && request.form?.grant_type === 'refresh_token',
  ).length
}

describe(`${fleetSize} processes sharing one session through a three-node Redis Cluster`, () => {
  for (const window of [1, 2]) {
    it(`expiry window ${window}: exactly 1 refresh, every FHIR request succeeds`, async () => {
      const before = refreshRequests()
      const reports = await fleet.run({
        calls: concurrentFetches,
        concurrency: concurrentFetches,
        clockOffsetMs: window * windowStepMs,
      })
      expect(refreshRequests() - before).toBe(1)
      expect(reports).toHaveLength(fleetSize)
      for (const report of reports) {
        expect(report.failures).toEqual([])
        expect(report.succeeded).toBe(concurrentFetches)
      }
      expect(new Set(reports.flatMap((report) => report.tokens)).size).toBe(1)
    }, 60_000)
  }
})
