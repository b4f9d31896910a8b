import type { CryptoBackend } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { discoverUdapMetadata, verifySignedMetadata } from '@fhir-auth/udap'
import {
  compareInterleaved,
  measureAlone,
  timeOnce,
} from '../measurement/interleaved-comparison.js'
import { describeDistribution, distributionValues } from '../report/distribution.js'
import { type Figure, type SectionReport, verdictForLimit } from '../report/figure.js'
import { formatMilliseconds, formatRatio, roundTo } from '../report/format.js'
import { measureFetchedRevocation } from './revocation-figures.js'

/** Goal for validating `signed_metadata` with crypto-node in steady state. */
export const signedMetadataGoalMs = 5

const steadyPlan = { warmupIterations: 20, samples: 120 }
const coldCachePlan = { warmupIterations: 5, samples: 50 }
const discoveryPlan = { warmupIterations: 10, samples: 60 }

/**
 * Figure 5: UDAP `signed_metadata` validation (`verifySignedMetadata`: RS256 signature, a
 * 3-certificate chain — server leaf, intermediate, anchor — with a CRL for each CA, claims and
 * endpoints) against the UDAP sandbox's real metadata, with both backends. Goal ≤ 5 ms with
 * crypto-node in steady state (one backend, its caches warm); the first call is printed too.
 *
 * This section runs before any other library code executes, so "first call" includes the
 * JIT warm-up of core's X.509 code, as in a fresh process.
 */
export async function runUdapSection(): Promise<SectionReport> {
  const sandbox = await startUdapSandbox({ requestLogLimit: 0 })
  try {
    return await measureWithSandbox(sandbox)
  } finally {
    await sandbox.close()
  }
}

async function measureWithSandbox(sandbox: UdapSandbox): Promise<SectionReport> {
  const response = await fetch(sandbox.endpoints.discovery)
  const document = (await response.json()) as Record<string, unknown>
  const jwt = document.signed_metadata
  if (typeof jwt !== 'string') throw new Error('the UDAP sandbox served no signed_metadata')
  const trustInputs = {
    trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem),
    crls: sandbox.trust.crls.map((crl) => crl.pem),
  }
  const verifyWith = (crypto: CryptoBackend) => () =>
    verifySignedMetadata({
      ...trustInputs,
      jwt,
      baseUrl: sandbox.fhirBaseUrl,
      unsignedMetadata: document,
      crypto,
      now: new Date(),
      allowInsecureLocalhost: true,
    })

  const nodeBackend = createNodeCryptoBackend()
  const webBackend = createWebCryptoBackend()
  const nodeFirstCallMs = await timeOnce(verifyWith(nodeBackend))
  const webFirstCallMs = await timeOnce(verifyWith(webBackend))
  const steady = await compareInterleaved(
    { name: 'crypto-node', run: verifyWith(nodeBackend) },
    { name: 'crypto-webcrypto', run: verifyWith(webBackend) },
    steadyPlan,
  )
  const coldCaches = await compareInterleaved(
    { name: 'crypto-node', run: () => verifyWith(createNodeCryptoBackend())() },
    { name: 'crypto-webcrypto', run: () => verifyWith(createWebCryptoBackend())() },
    coldCachePlan,
  )
  const discovery = await measureAlone(
    {
      name: 'discoverUdapMetadata',
      run: () =>
        discoverUdapMetadata({
          ...trustInputs,
          baseUrl: sandbox.fhirBaseUrl,
          crypto: nodeBackend,
          allowInsecureLocalhost: true,
        }),
    },
    discoveryPlan,
  )

  const figures: Figure[] = [
    {
      id: 'udap.signedMetadata.node',
      label: 'UDAP signed_metadata validation, crypto-node',
      goal: `≤ ${formatMilliseconds(signedMetadataGoalMs)} steady`,
      measured: `${describeDistribution(steady.baseline)}; first call ${formatMilliseconds(nodeFirstCallMs)}`,
      verdict: verdictForLimit(steady.baseline.median, signedMetadataGoalMs),
      values: { ...distributionValues(steady.baseline), firstCallMs: roundTo(nodeFirstCallMs, 3) },
    },
    {
      id: 'udap.signedMetadata.webcrypto',
      label: 'UDAP signed_metadata validation, crypto-webcrypto',
      goal: '—',
      measured: `${describeDistribution(steady.subject)}; first call ${formatMilliseconds(webFirstCallMs)}; ${formatRatio(steady.ratio)} node`,
      verdict: 'info',
      values: {
        ...distributionValues(steady.subject),
        firstCallMs: roundTo(webFirstCallMs, 3),
        ratioToNode: roundTo(steady.ratio, 3),
      },
    },
    {
      id: 'udap.discovery.node',
      label: 'discoverUdapMetadata over loopback HTTP, crypto-node',
      goal: '—',
      measured: describeDistribution(discovery),
      verdict: 'info',
      values: distributionValues(discovery),
    },
    ...(await measureFetchedRevocation(nodeBackend)),
  ]
  const details = [
    `chain: server leaf (RSA 2048, RS256) ← intermediate (P-384) ← anchor (P-384), one CRL per CA, ${sandbox.trust.crls.length} CRLs given`,
    `new backend per call (cold parse caches): crypto-node ${describeDistribution(coldCaches.baseline)}, crypto-webcrypto ${describeDistribution(coldCaches.subject)}`,
    'first call = the first validation in this process with a new backend (JIT and caches cold); crypto-webcrypto runs second, after core X.509 code is warm',
  ]
  return { id: 'udap', title: 'UDAP signed_metadata', figures, details }
}
