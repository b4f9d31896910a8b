/**
 * Web launch round trips: `/launch` → authorization server → `/callback` → a saved session,
 * through `@fhir-auth/web` (`web.handle` on Fetch `Request`s, with its launch and session
 * cookies) against the same steps written by hand on `Client` (`beginAuthorization`,
 * `completeAuthorization`, `sessions().save`), interleaved in one run, with `memoryStore()` and
 * with a `redisStore` on a real `redis-server`. Both drive the same oidc-provider sandbox with
 * its headless user agent, so the ratio is what the web layer adds to a whole sign-in.
 */
import { Client, ClientDirectory, type KeyValueStore, memoryStore } from '@fhir-auth/client'
import { type SmartSandbox, sandboxDefaultRedirectUri, startSmartSandbox } from '@fhir-auth/sandbox'
import { redisStore } from '@fhir-auth/store-redis'
import { startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { smartWebApp } from '@fhir-auth/web'
import { createClient } from 'redis'
import { compareInterleaved, type MeasurementPlan } from '../measurement/interleaved-comparison.js'
import { distributionValues } from '../report/distribution.js'
import { type Figure, type SectionReport, verdictForLimit } from '../report/figure.js'
import { formatRatio, roundTo } from '../report/format.js'

/** The goal of the issue: the web layer costs at most 15 % more than the same steps by hand. */
export const goalRatio = 1.15

/**
 * 200 interleaved pairs: a round trip takes about 12 ms, and with 40 pairs the median ratio of
 * one run moved between 1.02× and 1.18× on a quiet machine (fastest-sample ratios 0.97–1.02×).
 */
const defaultPlan: MeasurementPlan = { warmupIterations: 20, samples: 200 }
const secret = 'bench-web-app-secret-0123456789'
const appOrigin = 'https://app.bench.test'

/** One launch round trip each way, against `sandbox`, keeping launches and sessions in `store`. */
export function webContenders(
  sandbox: SmartSandbox,
  store: KeyValueStore,
): { readonly byHand: () => Promise<string>; readonly web: () => Promise<string> } {
  const client = new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      clientId: 'bench-web-app',
      clientSecret: secret,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: ['launch', 'patient/*.rs', 'openid', 'fhirUser'],
      allowInsecureLocalhost: true,
    },
    { clientType: 'confidential_symmetric' },
  )
  const directory = new ClientDirectory({ clients: [client], store })
  const sessions = directory.sessions()
  const web = smartWebApp({ clients: directory })
  const iss = encodeURIComponent(sandbox.fhirBaseUrl)
  const authorize = async (authUrl: string): Promise<URL> => {
    const result = await sandbox.authorize({ url: authUrl })
    if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
    return result.redirectUrl
  }
  return {
    byHand: async () => {
      const launch = sandbox.createLaunch({ patient: 'patient-1' })
      const { authUrl } = await directory.beginAuthorization({ iss: sandbox.fhirBaseUrl, launch })
      const session = await directory.completeAuthorization((await authorize(authUrl)).href)
      return sessions.save(session)
    },
    web: async () => {
      const launch = sandbox.createLaunch({ patient: 'patient-1' })
      const started = await web.handle(
        new Request(`${appOrigin}/launch?iss=${iss}&launch=${launch}`),
      )
      const launchCookie = started?.headers.getSetCookie()[0]?.split(';')[0] ?? ''
      const callback = await authorize(started?.headers.get('location') ?? '')
      const done = await web.handle(
        new Request(`${appOrigin}${callback.pathname}${callback.search}`, {
          headers: { cookie: launchCookie },
        }),
      )
      if (done?.status !== 302) throw new Error(`callback answered ${done?.status}`)
      return done.headers.getSetCookie()[1] ?? ''
    },
  }
}

async function figureFor(
  name: 'memory' | 'redis',
  sandbox: SmartSandbox,
  store: KeyValueStore,
  plan: MeasurementPlan,
): Promise<Figure> {
  const { byHand, web } = webContenders(sandbox, store)
  const comparison = await compareInterleaved(
    { name: 'by hand (ClientDirectory)', run: byHand },
    { name: 'web.handle', run: web },
    plan,
  )
  return {
    id: `web.launchRoundTrip.${name}`,
    label: `launch round trip through web.handle vs the same calls by hand (${name === 'memory' ? 'memoryStore' : 'redisStore'})`,
    goal: `≤ ${formatRatio(goalRatio)}`,
    measured: `${formatRatio(comparison.ratio)} (${comparison.subject.median.toFixed(1)} vs ${comparison.baseline.median.toFixed(1)} ms; ${(1000 / comparison.subject.median).toFixed(0)} vs ${(1000 / comparison.baseline.median).toFixed(0)} per second; fastest ${formatRatio(comparison.fastestRatio)})`,
    verdict: verdictForLimit(roundTo(comparison.ratio, 2), goalRatio),
    values: {
      ratio: roundTo(comparison.ratio, 3),
      fastestRatio: roundTo(comparison.fastestRatio, 3),
      webPerSecond: roundTo(1000 / comparison.subject.median, 1),
      byHandPerSecond: roundTo(1000 / comparison.baseline.median, 1),
      web: distributionValues(comparison.subject),
      byHand: distributionValues(comparison.baseline),
    },
  }
}

/** The section: one figure with `memoryStore()`, one with Redis. */
export async function runWebSection(plan: MeasurementPlan = defaultPlan): Promise<SectionReport> {
  const [sandbox, redisServer] = await Promise.all([
    startSmartSandbox({
      clients: [
        {
          client_id: 'bench-web-app',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: secret,
        },
      ],
    }),
    startRedisServer(),
  ])
  const redis = await createClient({ url: redisServer.url }).connect()
  try {
    const figures = [
      await figureFor('memory', sandbox, memoryStore(), plan),
      await figureFor('redis', sandbox, redisStore(redis), plan),
    ]
    return {
      id: 'web',
      title: 'Web: launch round trips through @fhir-auth/web vs by hand',
      figures,
      details: [
        `each operation: an EHR launch created at the sandbox, /launch, the sandbox's headless user agent, /callback, the session saved; ${plan.samples} interleaved pairs after ${plan.warmupIterations} warm-up pairs`,
        'by hand: ClientDirectory.beginAuthorization, completeAuthorization and sessions().save, without cookies',
      ],
    }
  } finally {
    await redis.close()
    await Promise.all([sandbox.close(), redisServer.stop()])
  }
}
