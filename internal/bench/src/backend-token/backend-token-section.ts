import { Client } from '@fhir-auth/client'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { generateClientKeys, startSmartSandbox } from '@fhir-auth/sandbox'
import {
  compareInterleaved,
  type InterleavedComparison,
  type MeasurementPlan,
} from '../measurement/interleaved-comparison.js'
import { describeComparison, distributionValues } from '../report/distribution.js'
import { type Figure, type SectionReport, verdictForLimit } from '../report/figure.js'
import { formatRatio, roundTo } from '../report/format.js'
import { startFixedTokenServer } from './fixed-token-server.js'
import { type BackendTokenTarget, createJoseBackendTokenRequest } from './jose-baseline.js'

/** Goal: the library costs at most 5 % more per backend token than hand-written jose + fetch. */
export const backendTokenRatioGoal = 1.05

const fixedServerPlan: MeasurementPlan = { warmupIterations: 50, samples: 300 }
const sandboxPlan: MeasurementPlan = { warmupIterations: 20, samples: 150 }
const clientId = 'bench-backend'
const scope = 'system/*.rs'

/**
 * Figure 2: client overhead per backend services token. `Client.requestBackendToken` (SMART,
 * ES384 key, crypto-node) against a hand-written jose `SignJWT` + `fetch` baseline posting the
 * same form to the same endpoint, interleaved. Twice: against a fixed-answer `node:http`
 * endpoint (the client's cost dominates) and against the real SMART sandbox (oidc-provider
 * verifies every assertion). Goal: ratio ≤ 1.05×.
 */
export async function runBackendTokenSection(): Promise<SectionReport> {
  const keys = await generateClientKeys('ES384')
  const credentials = { clientId, privateKeyPem: keys.privateKeyPem, kid: keys.kid, scope }
  const figures: Figure[] = []

  const fixedServer = await startFixedTokenServer()
  try {
    const comparison = await compareClientWithBaseline(
      { ...credentials, tokenUrl: fixedServer.tokenUrl },
      fixedServer.fhirBaseUrl,
      fixedServerPlan,
    )
    figures.push(
      tokenFigure('token.fixedEndpoint', 'backend token, fixed local endpoint', comparison),
    )
  } finally {
    await fixedServer.close()
  }

  const sandbox = await startSmartSandbox({
    requestLogLimit: 0,
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [keys.publicJwk] },
      },
    ],
  })
  try {
    const comparison = await compareClientWithBaseline(
      { ...credentials, tokenUrl: sandbox.endpoints.token },
      sandbox.fhirBaseUrl,
      sandboxPlan,
    )
    figures.push(tokenFigure('token.smartSandbox', 'backend token, SMART sandbox', comparison))
  } finally {
    await sandbox.close()
  }
  return {
    id: 'token',
    title: 'Backend services token: Client vs jose + fetch',
    figures,
    details: [
      'subject: Client.requestBackendToken (ES384 key, crypto-node, signer cached after the first call, discovery skipped: tokenEndpoint configured)',
      'baseline: jose SignJWT (key imported once) + fetch with the same form; both use the global fetch, so they share one keep-alive connection pool',
    ],
  }
}

async function compareClientWithBaseline(
  target: BackendTokenTarget,
  fhirBaseUrl: string,
  plan: MeasurementPlan,
): Promise<InterleavedComparison> {
  const client = new Client(
    {
      baseUrl: fhirBaseUrl,
      clientId: target.clientId,
      privateKey: target.privateKeyPem,
      kid: target.kid,
      scopes: [target.scope],
      tokenEndpoint: target.tokenUrl,
      allowInsecureLocalhost: true,
    },
    { crypto: createNodeCryptoBackend() },
  )
  const baselineRequest = await createJoseBackendTokenRequest(target)
  // Both must succeed before anything is timed: a refused request is a fast error, not a figure.
  await baselineRequest()
  await client.requestBackendToken()
  return compareInterleaved(
    { name: 'jose + fetch', run: baselineRequest },
    { name: 'Client.requestBackendToken', run: () => client.requestBackendToken() },
    plan,
  )
}

function tokenFigure(id: string, label: string, comparison: InterleavedComparison): Figure {
  const { subject, baseline } = comparison
  return {
    id,
    label,
    goal: `≤ ${formatRatio(backendTokenRatioGoal)} jose + fetch`,
    measured: describeComparison(comparison),
    verdict: verdictForLimit(comparison.ratio, backendTokenRatioGoal),
    values: {
      ratio: roundTo(comparison.ratio, 3),
      fastestRatio: roundTo(comparison.fastestRatio, 3),
      overheadMs: roundTo(comparison.overheadMs, 4),
      client: distributionValues(subject),
      baseline: distributionValues(baseline),
    },
  }
}
