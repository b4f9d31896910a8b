/**
 * Issue 26's fleet figures, counted on the server: 4 Node processes open one session id from
 * `client.sessions({ store: redisStore(…) })` on a real `redis-server` (values sealed) and make
 * 10 concurrent `session.fetch` calls each, against the oidc-provider sandbox, which rotates
 * refresh tokens and revokes the whole grant when a spent one comes back. Over three expiry
 * windows (moved by the workers' injected clocks): exactly one refresh per window, no
 * `invalid_grant`, no failed FHIR request. A holder SIGKILLed while its refresh hangs costs one
 * more refresh, and the session survives. Counts, not timings.
 */
import { randomBytes } from 'node:crypto'
import { type Client, memoryStore } from '@fhir-auth/client'
import { sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { redisStore } from '@fhir-auth/store-redis'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appClient,
  clientIds,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from '../smart/support/smart-fixture.js'
import { type Fleet, startFleet } from './support/fleet.js'
import { type SessionWorkerSetup, workerHeader } from './support/fleet-messages.js'

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

async function signIn(client: Client) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return client.completeAuthorization(result.redirectUrl.href, { store })
}

beforeAll(async () => {
  ;[fixture, redis] = await Promise.all([
    startSmartFixture({
      standalonePatient: 'patient-3',
      accessTokenLifetimeSeconds: lifetimeSeconds,
    }),
    startRedisServer(),
  ])
  const encryptionKeyHex = randomBytes(32).toString('hex')
  redisClient = await createClient({ url: redis.url }).connect()
  const client = appClient(fixture, 'public')
  const store = redisStore(redisClient, { encryptionKey: Buffer.from(encryptionKeyHex, 'hex') })
  const sessionId = await client.sessions({ store }).save(await signIn(client))
  fleet = await startFleet<SessionWorkerSetup>(
    fleetSize,
    {
      fhirBaseUrl: fixture.sandbox.fhirBaseUrl,
      clientId: clientIds.public,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: standaloneScopes,
      redisUrl: redis.url,
      encryptionKeyHex,
      timeoutMs,
      sessionId,
      resource: 'Patient/patient-3',
    },
    new URL('./support/session-fleet-worker.ts', import.meta.url).pathname,
  )
}, 120_000)

afterAll(async () => {
  fixture?.sandbox.setTokenEndpointHooks(undefined)
  await fleet?.close()
  await redisClient?.close()
  await Promise.all([fixture?.sandbox.close(), redis?.stop()])
})

/** Refresh requests the sandbox received so far. */
function refreshRequests(): number {
  return fixture.sandbox.requests.filter(
    (request) => request.path === '/token' && request.form?.grant_type === 'refresh_token',
  ).length
}

/** Warnings that would mean the lock or the store failed the fleet. */
const fleetWarnings = ['sessions.lock_wait_exceeded', 'sessions.store_unavailable']

describe(`${fleetSize} processes × ${concurrentFetches} concurrent session.fetch on one session id`, () => {
  let lastToken: string | undefined

  for (const window of [1, 2, 3]) {
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
    const before = refreshRequests()
    let holder: (index: number) => void = () => {}
    const held = new Promise<number>((resolve) => {
      holder = resolve
    })
    let holding = false
    fixture.sandbox.setTokenEndpointHooks({
      // The first refresh of this window never gets an answer (the provider never sees it).
      beforeRequest: (request) => {
        if (holding || request.form?.grant_type !== 'refresh_token') return
        holding = true
        holder(Number(request.headers[workerHeader]))
        return new Promise<void>(() => {})
      },
    })
    const running = fleet.run({
      calls: concurrentFetches,
      concurrency: concurrentFetches,
      clockOffsetMs: 4 * windowStepMs,
    })
    const holderIndex = await held
    await fleet.kill(holderIndex)
    const reports = await running
    fixture.sandbox.setTokenEndpointHooks(undefined)

    expect(refreshRequests() - before).toBe(2)
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
    const after = refreshRequests()
    const next = await fleet.run({
      calls: concurrentFetches,
      concurrency: concurrentFetches,
      clockOffsetMs: 5 * windowStepMs,
    })
    expect(refreshRequests() - after).toBe(1)
    expect(next.every((report) => report.failures.length === 0)).toBe(true)
  }, 60_000)
})
