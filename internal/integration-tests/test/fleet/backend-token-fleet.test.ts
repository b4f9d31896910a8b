/**
 * Issue 13's fleet figures, counted on the server: 8 Node processes, each a `Client` with
 * `backendTokens({ store: redisStore(…) })` on one real `redis-server` (values sealed with a
 * shared key), make 200 `accessToken()` calls each against the SMART sandbox's backend services
 * → exactly 1 token request; after the (injected) expiry exactly 1 more; and when the process
 * holding the lock is killed while the token endpoint hangs on its request, the others still get
 * a token — 2 requests in that window (the dead holder's and one more), never one per process.
 * Counts, not timings (DESIGN §9, ADR 0010).
 */
import { randomBytes } from 'node:crypto'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  backendScopes,
  clientIds,
  type SmartFixture,
  startSmartFixture,
} from '../smart/support/smart-fixture.js'
import { type Fleet, startFleet } from './support/fleet.js'
import { hangFirstTokenRequest } from './support/hang-token-request.js'

const fleetSize = 8
const callsPerProcess = 200
/** The lock's time to live is this, rounded up to seconds: a dead holder costs about that long. */
const timeoutMs = 4_000
/**
 * The workers' injected clocks, one per window. Backend tokens live 120 s and are renewed 60 s
 * before they expire (the default `minValiditySeconds`), so each step of 70 s passes the
 * previous token's renewal point. The clocks stay within what the real server accepts: a client
 * assertion is signed with the injected clock and must not expire before the server's now (it
 * lives 300 s) nor reach more than 5 minutes past it — so every window runs behind real time.
 */
const lifetimeSeconds = 120
const clockOffsets = { first: -250_000, second: -180_000, third: -110_000 } as const

let fixture: SmartFixture
let redis: RedisServer
let fleet: Fleet

beforeAll(async () => {
  ;[fixture, redis] = await Promise.all([
    startSmartFixture({ backendAccessTokenLifetimeSeconds: lifetimeSeconds }),
    startRedisServer(),
  ])
  fleet = await startFleet(fleetSize, {
    fhirBaseUrl: fixture.sandbox.fhirBaseUrl,
    clientId: clientIds.backendEs384,
    privateKeyPem: fixture.es384Keys.privateKeyPem,
    kid: fixture.es384Keys.kid,
    scopes: [backendScopes[1] as string],
    redisUrl: redis.url,
    encryptionKeyHex: randomBytes(32).toString('hex'),
    timeoutMs,
  })
}, 120_000)

afterAll(async () => {
  fixture?.sandbox.setTokenEndpointHooks(undefined)
  await fleet?.close()
  await Promise.all([fixture?.sandbox.close(), redis?.stop()])
})

/** Token requests the sandbox received so far (client_credentials only). */
function tokenRequests(): number {
  return fixture.sandbox.requests.filter(
    (request) => request.path === '/token' && request.form?.grant_type === 'client_credentials',
  ).length
}

describe(`a fleet of ${fleetSize} processes sharing one Redis`, () => {
  let firstToken: string
  let secondToken: string

  it(`${fleetSize} × ${callsPerProcess} accessToken() calls: exactly 1 token request`, async () => {
    const before = tokenRequests()
    const reports = await fleet.run({
      calls: callsPerProcess,
      concurrency: 10,
      clockOffsetMs: clockOffsets.first,
    })
    expect(tokenRequests() - before).toBe(1)
    expect(reports).toHaveLength(fleetSize)
    for (const report of reports) {
      expect(report.failures).toEqual([])
      expect(report.succeeded).toBe(callsPerProcess)
      expect(report.warnings).toEqual([])
    }
    const tokens = new Set(reports.flatMap((report) => report.tokens))
    expect(tokens.size).toBe(1)
    firstToken = [...tokens][0] as string
  }, 60_000)

  it('after the injected expiry: exactly 1 more, the same new token everywhere', async () => {
    const before = tokenRequests()
    const reports = await fleet.run({
      calls: callsPerProcess,
      concurrency: 10,
      clockOffsetMs: clockOffsets.second,
    })
    expect(tokenRequests() - before).toBe(1)
    expect(reports.every((report) => report.failures.length === 0)).toBe(true)
    expect(reports.every((report) => report.succeeded === callsPerProcess)).toBe(true)
    const tokens = new Set(reports.flatMap((report) => report.tokens))
    expect(tokens.size).toBe(1)
    secondToken = [...tokens][0] as string
    expect(secondToken).not.toBe(firstToken)
  }, 60_000)

  it('the lock holder killed while the endpoint hangs on its request: the others get a token, 2 requests in all', async () => {
    const before = tokenRequests()
    // The first token request of this window never gets an answer.
    const held = hangFirstTokenRequest(fixture.sandbox)
    const running = fleet.run({
      calls: callsPerProcess,
      concurrency: 10,
      clockOffsetMs: clockOffsets.third,
    })
    const holderIndex = await held
    expect(holderIndex).toBeGreaterThanOrEqual(0)
    expect(holderIndex).toBeLessThan(fleetSize)
    await fleet.kill(holderIndex)
    const reports = await running

    expect(tokenRequests() - before).toBe(2)
    expect(reports).toHaveLength(fleetSize - 1)
    expect(reports.map((report) => report.index)).not.toContain(holderIndex)
    for (const report of reports) {
      expect(report.failures).toEqual([])
      expect(report.succeeded).toBe(callsPerProcess)
      // Nobody gave up waiting and requested on its own: the lock's expiry handed over.
      expect(report.warnings).toEqual([])
    }
    const tokens = new Set(reports.flatMap((report) => report.tokens))
    expect(tokens.size).toBe(1)
    expect([...tokens][0]).not.toBe(secondToken)
  }, 60_000)
})
