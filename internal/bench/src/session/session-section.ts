import { Client } from '@fhir-auth/client'
import {
  compareInterleaved,
  type InterleavedComparison,
  type MeasurementPlan,
} from '../measurement/interleaved-comparison.js'
import { distributionValues } from '../report/distribution.js'
import type { SectionReport } from '../report/figure.js'
import { formatRatio, roundTo } from '../report/format.js'

/** Calls per timed operation: one `accessToken()` is far below the clock's resolution. */
export const callsPerOperation = 1_000

const plan: MeasurementPlan = { warmupIterations: 500, samples: 2_000 }

/**
 * What the figure compares: `session.accessToken()` on a token valid for an hour (no refresh,
 * no I/O: the options read, the expiry check against the client's clock, the token returned)
 * and reading the same token from a variable, each awaited, {@link callsPerOperation} times per
 * timed operation.
 */
export function sessionContenders(): {
  readonly variable: () => Promise<number>
  readonly session: () => Promise<number>
} {
  const client = new Client({ baseUrl: 'https://ehr.bench.test/fhir', clientId: 'bench-app' })
  const session = client.resumeSession({ access_token: 'bench-access-token', expires_in: 3600 })
  const token: string = session.tokens.accessToken
  return {
    // The baseline an app that keeps the token itself pays: an await of a variable.
    variable: async () => {
      let length = 0
      for (let call = 0; call < callsPerOperation; call++) length += (await token).length
      return length
    },
    session: async () => {
      let length = 0
      for (let call = 0; call < callsPerOperation; call++)
        length += (await session.accessToken()).length
      return length
    },
  }
}

/**
 * Figure 7: the cost of asking a session for its access token when it is fresh, against reading
 * a variable, interleaved in the same run. No goal: the figure says what a call costs (a few
 * hundred nanoseconds is nothing next to the request it authorizes).
 */
export async function runSessionSection(): Promise<SectionReport> {
  const contenders = sessionContenders()
  const comparison: InterleavedComparison = await compareInterleaved(
    { name: 'await a variable', run: contenders.variable },
    { name: 'session.accessToken()', run: contenders.session },
    plan,
  )
  const perCallNs = (milliseconds: number) => (milliseconds * 1e6) / callsPerOperation
  const subjectNs = perCallNs(comparison.subject.median)
  const baselineNs = perCallNs(comparison.baseline.median)
  return {
    id: 'session',
    title: 'Session: accessToken() on a fresh token vs reading a variable',
    figures: [
      {
        id: 'session.accessToken',
        label: 'session.accessToken(), fresh token, vs await a variable',
        goal: '—',
        measured: `${formatRatio(comparison.ratio)} (${subjectNs.toFixed(0)} vs ${baselineNs.toFixed(0)} ns per call; fastest ${formatRatio(comparison.fastestRatio)})`,
        verdict: 'info',
        values: {
          ratio: roundTo(comparison.ratio, 2),
          fastestRatio: roundTo(comparison.fastestRatio, 2),
          sessionNsPerCall: roundTo(subjectNs, 1),
          variableNsPerCall: roundTo(baselineNs, 1),
          callsPerOperation,
          session: distributionValues(comparison.subject),
          variable: distributionValues(comparison.baseline),
        },
      },
    ],
    details: [
      `each timed operation is ${callsPerOperation} awaited calls; baseline and subject interleaved (${plan.samples} pairs after ${plan.warmupIterations} warm-up pairs)`,
      'subject: a Client session resumed from a token response with expires_in 3600 (no refresh, no request)',
    ],
  }
}
