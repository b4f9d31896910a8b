import { randomBytes } from 'node:crypto'
import { Client } from '@fhir-auth/client'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { generateClientKeys, startSmartSandbox } from '@fhir-auth/sandbox'
import { redisStore } from '@fhir-auth/store-redis'
import { startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import {
  compareInterleaved,
  type InterleavedComparison,
  type MeasurementPlan,
} from '../measurement/interleaved-comparison.js'
import { describeComparison, distributionValues } from '../report/distribution.js'
import type { Figure, SectionReport } from '../report/figure.js'
import { formatMilliseconds, roundTo } from '../report/format.js'

/** Calls per timed operation for the in-process figures: one call is far below the timer's grain. */
export const callsPerInProcessSample = 1_000

const inProcessPlan: MeasurementPlan = { warmupIterations: 50, samples: 200 }
const redisPlan: MeasurementPlan = { warmupIterations: 50, samples: 300 }
const requestPlan: MeasurementPlan = { warmupIterations: 20, samples: 150 }
const clientId = 'bench-reuse'
const scope = 'system/Patient.rs'

/**
 * Backend token reuse (DESIGN §9, issue 13): what a cached `accessToken()` costs.
 *
 * - in process (the client's own memory store) vs an awaited read of a `Map` — the floor of any
 *   asynchronous cache;
 * - with `redisStore` on a real `redis-server` (loopback) vs a direct token request
 *   (`requestBackendToken`, SMART sandbox, ES384) — what the cache saves each call;
 * - with `redisStore` vs the bare `GET` of the same key with the same `redis` client — what the
 *   library adds to the store's round trip; and the same with sealed values (`encryptionKey`).
 *
 * All ratios are medians measured interleaved in this run; no goals (figures for the lead).
 */
export async function runTokenReuseSection(): Promise<SectionReport> {
  const keys = await generateClientKeys('ES384')
  const [sandbox, redisServer] = await Promise.all([
    startSmartSandbox({
      requestLogLimit: 0,
      clients: [
        {
          client_id: clientId,
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
        },
      ],
    }),
    startRedisServer(),
  ])
  const redis = createClient({ url: redisServer.url })
  try {
    await redis.connect()
    const client = new Client(
      {
        baseUrl: sandbox.fhirBaseUrl,
        clientId,
        privateKey: keys.privateKeyPem,
        kid: keys.kid,
        scopes: [scope],
        tokenEndpoint: sandbox.endpoints.token,
        allowInsecureLocalhost: true,
      },
      { crypto: createNodeCryptoBackend(), clientType: 'confidential_asymmetric' },
    )
    const inProcess = client.backendTokens()
    const plainRedis = client.backendTokens({ store: redisStore(redis, { prefix: 'plain:' }) })
    const sealedRedis = client.backendTokens({
      store: redisStore(redis, { prefix: 'sealed:', encryptionKey: randomBytes(32) }),
    })
    // Each handle holds a token before anything is timed: a refusal would be a fast error.
    const token = await inProcess.accessToken()
    await Promise.all([plainRedis.accessToken(), sealedRedis.accessToken()])
    const storedKey = (await redis.keys('plain:*')).find((key) => key.includes('backend-token:'))
    if (storedKey === undefined) throw new Error('the Redis handle stored no token')

    const map = new Map([['token', token]])
    const readMap = async () => map.get('token')
    const inProcessComparison = await compareInterleaved(
      { name: 'awaited Map read', run: () => repeat(readMap) },
      { name: 'accessToken(), in process', run: () => repeat(() => inProcess.accessToken()) },
      inProcessPlan,
    )
    const redisVsGet = await compareInterleaved(
      { name: 'redis GET', run: () => redis.get(storedKey) },
      { name: 'accessToken(), redisStore', run: () => plainRedis.accessToken() },
      redisPlan,
    )
    const sealedVsGet = await compareInterleaved(
      { name: 'redis GET', run: () => redis.get(storedKey) },
      { name: 'accessToken(), redisStore sealed', run: () => sealedRedis.accessToken() },
      redisPlan,
    )
    const redisVsRequest = await compareInterleaved(
      { name: 'requestBackendToken', run: () => client.requestBackendToken() },
      { name: 'accessToken(), redisStore', run: () => plainRedis.accessToken() },
      requestPlan,
    )
    return {
      id: 'reuse',
      title: 'Backend token reuse: a cached accessToken() vs its baselines',
      figures: [
        perCallFigure(
          'reuse.inProcessVsMap',
          'cached accessToken(), in process, vs awaited Map read',
          inProcessComparison,
        ),
        figure(
          'reuse.redisVsRequest',
          'cached accessToken() with Redis vs a token request',
          redisVsRequest,
        ),
        figure('reuse.redisVsGet', 'cached accessToken() with Redis vs bare redis GET', redisVsGet),
        figure(
          'reuse.sealedVsGet',
          'cached accessToken() with Redis, sealed, vs bare redis GET',
          sealedVsGet,
        ),
      ],
      details: [
        `in process: ${callsPerInProcessSample} calls per timed sample; per call ${formatMicroseconds(perCall(inProcessComparison.subject.median))} vs ${formatMicroseconds(perCall(inProcessComparison.baseline.median))} for the Map`,
        `a token request costs ${formatMilliseconds(redisVsRequest.baseline.median)} (SMART sandbox, ES384 assertion verified by oidc-provider, tokenEndpoint configured); a cached call with Redis ${formatMilliseconds(redisVsRequest.subject.median)}`,
        'Redis: redis-server on loopback, persistence off, the redis client package v5; sealed = AES-256-GCM with the store key bound',
      ],
    }
  } finally {
    await redis.quit().catch(() => {})
    await Promise.all([sandbox.close(), redisServer.stop()])
  }
}

async function repeat(operation: () => Promise<unknown>): Promise<void> {
  for (let call = 0; call < callsPerInProcessSample; call++) await operation()
}

const perCall = (sampleMs: number) => sampleMs / callsPerInProcessSample

/** Microseconds: one in-process call is a few of them. */
function formatMicroseconds(milliseconds: number): string {
  return `${(milliseconds * 1000).toFixed(2)} µs`
}

function figure(id: string, label: string, comparison: InterleavedComparison): Figure {
  return {
    id,
    label,
    goal: '—',
    measured: describeComparison(comparison),
    verdict: 'info',
    values: {
      ratio: roundTo(comparison.ratio, 4),
      fastestRatio: roundTo(comparison.fastestRatio, 4),
      subject: distributionValues(comparison.subject),
      baseline: distributionValues(comparison.baseline),
    },
  }
}

/** A figure whose samples are {@link callsPerInProcessSample} calls: per-call times shown. */
function perCallFigure(id: string, label: string, comparison: InterleavedComparison): Figure {
  const base = figure(id, label, comparison)
  const ratio = `${comparison.ratio.toFixed(2)}×`
  return {
    ...base,
    measured: `${ratio} (${formatMicroseconds(perCall(comparison.subject.median))} vs ${formatMicroseconds(perCall(comparison.baseline.median))} per call; fastest ${comparison.fastestRatio.toFixed(2)}×)`,
    values: {
      ...base.values,
      callsPerSample: callsPerInProcessSample,
      subjectPerCallMs: roundTo(perCall(comparison.subject.median), 6),
      baselinePerCallMs: roundTo(perCall(comparison.baseline.median), 6),
    },
  }
}
