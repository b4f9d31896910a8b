import type { CryptoBackend } from '@fhir-auth/core'
import { memoryStore } from '@fhir-auth/core'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { discoverUdapMetadata } from '@fhir-auth/udap'
import { compareInterleaved } from '../measurement/interleaved-comparison.js'
import { describeComparison } from '../report/distribution.js'
import { type Figure, verdictForLimit } from '../report/figure.js'
import { roundTo } from '../report/format.js'

/** Goal: discovery with CRLs fetched and cached costs at most 1.1× discovery with `crls` given. */
export const fetchedRevocationRatioGoal = 1.1

/** Concurrent discoveries on a cold cache; goal: one fetch per CRL URL. */
export const concurrentDiscoveries = 50

const comparisonPlan = { warmupIterations: 10, samples: 60 }

/**
 * UDAP trust online (issue 30), against a UDAP sandbox whose certificates name CRL distribution
 * points on the sandbox: `discoverUdapMetadata` with the CRLs fetched once and then served from
 * a warm `revocation.cache`, against the same discovery with `crls` given (interleaved, one
 * run); and the fetches per CRL URL of 50 concurrent discoveries sharing one cold cache.
 */
export async function measureFetchedRevocation(crypto: CryptoBackend): Promise<readonly Figure[]> {
  const sandbox = await startUdapSandbox({ requestLogLimit: 0, crlDistributionPoints: true })
  try {
    return await measureWith(sandbox, crypto)
  } finally {
    await sandbox.close()
  }
}

async function measureWith(sandbox: UdapSandbox, crypto: CryptoBackend): Promise<Figure[]> {
  const trustedAnchors = sandbox.trust.anchors.map((anchor) => anchor.pem)
  const crls = sandbox.trust.crls.map((crl) => crl.pem)
  const fetches = new Map<string, number>()
  const countingFetch = (url: string, init: RequestInit) => {
    if (new URL(url).pathname.startsWith('/crl/')) fetches.set(url, (fetches.get(url) ?? 0) + 1)
    return globalThis.fetch(url, init)
  }
  const discover = (extra: Record<string, unknown>) => () =>
    discoverUdapMetadata({
      baseUrl: sandbox.fhirBaseUrl,
      crypto,
      allowInsecureLocalhost: true,
      fetch: countingFetch,
      trustedAnchors,
      ...extra,
    })

  const warmCache = memoryStore()
  await discover({ revocation: { cache: warmCache } })()
  const comparison = await compareInterleaved(
    { name: 'crls given', run: discover({ crls }) },
    { name: 'CRLs fetched, warm cache', run: discover({ revocation: { cache: warmCache } }) },
    comparisonPlan,
  )

  fetches.clear()
  const coldCache = memoryStore()
  await Promise.all(
    Array.from({ length: concurrentDiscoveries }, () =>
      discover({ revocation: { cache: coldCache } })(),
    ),
  )
  const perUrl = [...fetches.values()]
  const mostFetches = Math.max(0, ...perUrl)
  return [
    {
      id: 'udap.revocation.fetchedWarmRatio',
      label: 'discoverUdapMetadata, CRLs fetched (warm cache) vs crls given',
      goal: `≤ ${fetchedRevocationRatioGoal}×`,
      measured: describeComparison(comparison),
      verdict: verdictForLimit(comparison.ratio, fetchedRevocationRatioGoal),
      values: {
        ratio: roundTo(comparison.ratio, 3),
        fastestRatio: roundTo(comparison.fastestRatio, 3),
        fetchedMedianMs: roundTo(comparison.subject.median, 3),
        givenMedianMs: roundTo(comparison.baseline.median, 3),
      },
    },
    {
      id: 'udap.revocation.fetchesPerUrl',
      label: `CRL fetches per URL, ${concurrentDiscoveries} concurrent discoveries, cold cache`,
      goal: '1',
      measured: `${mostFetches} (${perUrl.length} URLs: ${[...fetches.entries()].map(([url, count]) => `${new URL(url).pathname} ×${count}`).join(', ')})`,
      verdict: perUrl.length > 0 && mostFetches === 1 ? 'pass' : 'miss',
      values: { mostFetches, urls: perUrl.length },
    },
  ]
}
