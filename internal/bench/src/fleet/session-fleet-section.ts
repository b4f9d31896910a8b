/**
 * Issue 26's figures: sessions a fleet shares (`client.sessions({ store })`).
 *
 * - Fleet refresh: 8 Node processes open one session id from a `redisStore` on a real
 *   `redis-server` and make 10 concurrent `session.fetch` calls each, against the oidc-provider
 *   sandbox (it rotates refresh tokens and revokes the grant when a spent one comes back), over
 *   three expiry windows moved by the workers' injected clocks: refresh requests per window
 *   (goal: exactly 1), `invalid_grant` answers and failed FHIR requests (goal: 0 each).
 * - A holder SIGKILLed while its refresh hangs: the extra refreshes it caused (goal ≤ 1) and
 *   whether the session survived (a next window succeeds everywhere).
 * - Fast path: `session.accessToken()` on a fresh token, store-backed against in-memory,
 *   interleaved (goal ≤ 1.2×): a fresh token costs no store read.
 *
 * The worker processes are the integration test's (internal/integration-tests/test/fleet), so
 * the bench and the test run the same code.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Client, memoryStore } from '@fhir-auth/client'
import { sandboxDefaultRedirectUri, startSmartSandbox } from '@fhir-auth/sandbox'
import { redisStore } from '@fhir-auth/store-redis'
import { startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { startFleet } from '../../../integration-tests/test/fleet/support/fleet.js'
import {
  type SessionWorkerSetup,
  workerHeader,
} from '../../../integration-tests/test/fleet/support/fleet-messages.js'
import { compareInterleaved, type MeasurementPlan } from '../measurement/interleaved-comparison.js'
import { distributionValues } from '../report/distribution.js'
import type { Figure, SectionReport } from '../report/figure.js'
import { formatRatio, roundTo } from '../report/format.js'
import { repositoryRoot } from '../workspace-paths.js'

const fleetSize = 8
const concurrentFetches = 10
const windows = 3
const timeoutMs = 8_000
const lifetimeSeconds = 120
/** Each window moves the clocks past the renewal point (60 s before expiry) of the last tokens. */
const windowStepMs = 70_000
const scopes = ['launch/patient', 'patient/*.rs', 'offline_access']
const callsPerOperation = 1_000
const fastPathPlan: MeasurementPlan = { warmupIterations: 300, samples: 1_000 }

export async function runSessionFleetSection(): Promise<SectionReport> {
  const fleetFigures = await measureFleet()
  const fastPath = await measureFastPath()
  return {
    id: 'fleet',
    title: `Sessions a fleet shares: ${fleetSize} processes × ${concurrentFetches} concurrent session.fetch on one id`,
    figures: [...fleetFigures.figures, fastPath],
    details: [
      `redisStore (sealed) on a real redis-server; oidc-provider sandbox rotating refresh tokens; access tokens of ${lifetimeSeconds} s; ${windows} windows moved by injected clocks; lock time to live ${timeoutMs / 1000} s (the request timeout)`,
      `refresh requests per window: ${fleetFigures.perWindow.join(', ')}`,
    ],
  }
}

async function measureFleet(): Promise<{ figures: Figure[]; perWindow: number[] }> {
  const [sandbox, redisServer] = await Promise.all([
    startSmartSandbox({
      clients: [{ client_id: 'bench-public', token_endpoint_auth_method: 'none' }],
      standalonePatient: 'patient-3',
      accessTokenLifetimeSeconds: lifetimeSeconds,
    }),
    startRedisServer(),
  ])
  const redis = await createClient({ url: redisServer.url }).connect()
  const encryptionKeyHex = randomBytes(32).toString('hex')
  const config = {
    baseUrl: sandbox.fhirBaseUrl,
    clientId: 'bench-public',
    redirectUri: sandboxDefaultRedirectUri,
    scopes,
    allowInsecureLocalhost: true,
  }
  let fleet: Awaited<ReturnType<typeof startFleet>> | undefined
  try {
    const client = new Client(config, { clientType: 'public' })
    const launches = memoryStore()
    const begun = await client.beginAuthorization({ store: launches })
    const authorized = await sandbox.authorize({ url: begun.authUrl })
    if (authorized.redirectUrl === undefined) throw new Error(`no callback: ${authorized.error}`)
    const session = await client.completeAuthorization(authorized.redirectUrl.href, {
      store: launches,
    })
    const store = redisStore(redis, { encryptionKey: Buffer.from(encryptionKeyHex, 'hex') })
    const sessionId = await client.sessions({ store }).save(session)
    fleet = await startFleet<SessionWorkerSetup>(
      fleetSize,
      {
        fhirBaseUrl: sandbox.fhirBaseUrl,
        clientId: 'bench-public',
        redirectUri: sandboxDefaultRedirectUri,
        scopes,
        redisUrl: redisServer.url,
        encryptionKeyHex,
        timeoutMs,
        sessionId,
        resource: 'Patient/patient-3',
      },
      join(repositoryRoot, 'internal/integration-tests/test/fleet/support/session-fleet-worker.ts'),
    )
    const refreshes = () =>
      sandbox.requests.filter(
        (request) => request.path === '/token' && request.form?.grant_type === 'refresh_token',
      ).length
    const perWindow: number[] = []
    let failed = 0
    let invalidGrants = 0
    const count = (reports: readonly { failures: readonly string[] }[]) => {
      for (const report of reports) {
        failed += report.failures.length
        invalidGrants += report.failures.filter((text) => text.includes('invalid_grant')).length
      }
    }
    for (let window = 1; window <= windows; window++) {
      const before = refreshes()
      const reports = await fleet.run({
        calls: concurrentFetches,
        concurrency: concurrentFetches,
        clockOffsetMs: window * windowStepMs,
      })
      perWindow.push(refreshes() - before)
      count(reports)
    }

    // A holder killed while its refresh hangs.
    const crashBefore = refreshes()
    let holder: (index: number) => void = () => {}
    const held = new Promise<number>((resolve) => {
      holder = resolve
    })
    let holding = false
    sandbox.setTokenEndpointHooks({
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
      clockOffsetMs: (windows + 1) * windowStepMs,
    })
    await fleet.kill(await held)
    const crashReports = await running
    sandbox.setTokenEndpointHooks(undefined)
    const extraRefreshes = refreshes() - crashBefore - 1
    const crashFailures = crashReports.reduce((sum, report) => sum + report.failures.length, 0)
    const next = await fleet.run({
      calls: concurrentFetches,
      concurrency: concurrentFetches,
      clockOffsetMs: (windows + 2) * windowStepMs,
    })
    const survived = crashFailures === 0 && next.every((report) => report.failures.length === 0)

    const exactlyOne = perWindow.every((count) => count === 1)
    return {
      perWindow,
      figures: [
        {
          id: 'fleet.refreshesPerWindow',
          label: `fleet refresh: refresh requests per expiry window (${windows} windows)`,
          goal: 'exactly 1',
          measured: perWindow.join(', '),
          verdict: exactlyOne ? 'pass' : 'miss',
          values: { perWindow, fleetSize, concurrentFetches },
        },
        {
          id: 'fleet.invalidGrant',
          label: 'fleet refresh: invalid_grant answers',
          goal: '0',
          measured: String(invalidGrants),
          verdict: invalidGrants === 0 ? 'pass' : 'miss',
          values: { invalidGrants },
        },
        {
          id: 'fleet.failedFhirRequests',
          label: `fleet refresh: failed FHIR requests (of ${fleetSize * concurrentFetches * windows})`,
          goal: '0',
          measured: String(failed),
          verdict: failed === 0 ? 'pass' : 'miss',
          values: { failed, total: fleetSize * concurrentFetches * windows },
        },
        {
          id: 'fleet.crash',
          label: 'holder SIGKILLed mid-refresh: extra refreshes; session survived',
          goal: '≤ 1; yes',
          measured: `${extraRefreshes}; ${survived ? 'yes' : 'no'}`,
          verdict: extraRefreshes <= 1 && survived ? 'pass' : 'miss',
          values: { extraRefreshes, survived },
        },
      ],
    }
  } finally {
    sandbox.setTokenEndpointHooks(undefined)
    await fleet?.close()
    await redis.close()
    await Promise.all([sandbox.close(), redisServer.stop()])
  }
}

/** `session.accessToken()` on a fresh token: store-backed (memoryStore) against in-memory. */
async function measureFastPath(): Promise<Figure> {
  const client = new Client({ baseUrl: 'https://ehr.bench.test/fhir', clientId: 'bench-app' })
  const tokens = {
    access_token: 'bench-access-token',
    refresh_token: 'bench-refresh-token',
    expires_in: 3600,
  }
  const inMemory = client.resumeSession(tokens)
  const sessions = client.sessions({ store: memoryStore() })
  // Another session saved: a session given to save() refreshes through the store from then on.
  const stored = await sessions.open(await sessions.save(client.resumeSession(tokens)))
  if (stored === undefined) throw new Error('the saved session did not open')
  const calls = (session: typeof inMemory) => async () => {
    let length = 0
    for (let call = 0; call < callsPerOperation; call++)
      length += (await session.accessToken()).length
    return length
  }
  const comparison = await compareInterleaved(
    { name: 'in-memory session', run: calls(inMemory) },
    { name: 'store-backed session', run: calls(stored) },
    fastPathPlan,
  )
  return {
    id: 'fleet.fastPath',
    label: 'session.accessToken(), fresh token: store-backed vs in-memory',
    goal: '≤ 1.2×',
    measured: `${formatRatio(comparison.ratio)} (fastest ${formatRatio(comparison.fastestRatio)})`,
    verdict: comparison.ratio <= 1.2 ? 'pass' : 'miss',
    values: {
      ratio: roundTo(comparison.ratio, 2),
      fastestRatio: roundTo(comparison.fastestRatio, 2),
      callsPerOperation,
      storeBacked: distributionValues(comparison.subject),
      inMemory: distributionValues(comparison.baseline),
    },
  }
}
