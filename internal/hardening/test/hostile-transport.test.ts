/**
 * Hand-written nasties (see `support/transport-cases.ts`: non-JSON, wrong shapes and types,
 * bodies over 1 MiB, 100 000 levels of nesting, wrong content types, redirects, 3xx on POST,
 * 4xx/5xx with and without OAuth error bodies, hostile endpoint URLs, a `fetch` that throws
 * every kind of value, never settles or returns something that is not a `Response`) against
 * every exchange of the functional APIs and of `Client` (see `support/transport-targets.ts`).
 *
 * For each target, one test runs every case and lists every broken promise at once: each case
 * must end in success or the target's typed error, within the timeout, with no request secret
 * in the error or the log, no request to a non-HTTPS URL, and — for cases no client may
 * accept — no success.
 */
import { createCapturingLogger, SecretScanner } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  expectTypedOutcome,
  HostileCaseViolation,
  printCaseLedger,
  scriptedFetch,
  secretFindings,
} from '../src/index.js'
import { transportCases } from './support/transport-cases.js'
import {
  createTargetResources,
  createTransportTargets,
  type TransportTarget,
  targetTimeoutMs,
  transportTargetNames,
} from './support/transport-targets.js'

/** A loaded machine delays timers; the margin keeps the hang check about hangs. */
const marginMs = 5_000

let targets: ReadonlyMap<string, TransportTarget>

beforeAll(async () => {
  targets = createTransportTargets(await createTargetResources())
  expect([...targets.keys()]).toEqual(transportTargetNames)
})
afterAll(() => printCaseLedger('hostile-transport'))

/** Values the library sent that are secret: assertions, software statements, Authorization headers. */
function sentSecrets(calls: ReturnType<typeof scriptedFetch>['calls']): Record<string, string> {
  const found: Record<string, string> = {}
  calls.forEach((call, index) => {
    const assertion = call.form?.client_assertion
    if (assertion !== undefined) found[`client assertion ${index}`] = assertion
    const authorization = call.headers.authorization
    if (authorization !== undefined) {
      found[`authorization header ${index}`] = authorization
      found[`authorization credentials ${index}`] = authorization.replace(/^\S+\s+/, '')
    }
    if (call.body !== undefined && call.form === undefined) {
      try {
        const statement = (JSON.parse(call.body) as Record<string, unknown>).software_statement
        if (typeof statement === 'string') found[`software statement ${index}`] = statement
      } catch {
        // Not JSON: nothing secret to collect.
      }
    }
  })
  return found
}

/** Runs one case against one target; returns the broken promises, empty when none. */
async function runCase(
  target: TransportTarget,
  nasty: (typeof transportCases)[number],
): Promise<string[]> {
  const problems: string[] = []
  const logger = createCapturingLogger()
  const fetch = scriptedFetch((call) =>
    call.url.startsWith(target.hostileUrl) && call.method === target.method
      ? nasty.answer(call, target)
      : target.otherAnswer(call),
  )
  try {
    const outcome = await expectTypedOutcome(() => target.run(fetch.fetch, logger), {
      maxElapsedMs: 3 * targetTimeoutMs + marginMs,
      secrets: target.secrets,
      privateKeyPems: target.privateKeyPems,
    })
    if (outcome.kind === 'typed-error') {
      if (!target.errorNames.includes(outcome.error.name)) {
        problems.push(
          `failed with ${outcome.error.name} (${outcome.error.message}); expected ${target.errorNames.join(' or ')}`,
        )
      }
      const leaks = secretFindings(outcome.error, { secrets: sentSecrets(fetch.calls) })
      if (leaks.length > 0) problems.push(`${outcome.error.name} leaks ${leaks.join('; ')}`)
    } else if (typeof nasty.mustFail === 'function' ? nasty.mustFail(target) : nasty.mustFail) {
      problems.push('succeeded, but no client may accept this answer')
    }
  } catch (error) {
    if (!(error instanceof HostileCaseViolation)) throw error
    problems.push(error.message)
  }
  const scanner = new SecretScanner().addLines('log', logger.renderedLines())
  for (const [label, value] of Object.entries({ ...target.secrets, ...sentSecrets(fetch.calls) })) {
    if (value.length >= 8) scanner.addSecret(label, value)
  }
  for (const pem of target.privateKeyPems) scanner.addPrivateKeyPem('private key', pem)
  for (const finding of scanner.findings()) problems.push(`${finding.secret} in ${finding.source}`)
  for (const call of fetch.calls) {
    if (!URL.canParse(call.url) || new URL(call.url).protocol !== 'https:') {
      problems.push(`requested a non-HTTPS URL: ${call.url.slice(0, 80)}`)
    }
  }
  return problems
}

describe('hand-written nasties against every exchange', () => {
  it.each(transportTargetNames)('%s', async (name) => {
    const target = targets.get(name)
    if (target === undefined) throw new Error(`no target named ${name}`)
    const applicable = transportCases.filter((nasty) => nasty.applies?.(target) ?? true)
    countHandWrittenCases(name, applicable.length)
    const findings: string[] = []
    for (const nasty of applicable) {
      for (const problem of await runCase(target, nasty)) findings.push(`${nasty.name}: ${problem}`)
    }
    expect(findings, `${findings.length} broken promises:\n${findings.join('\n')}`).toEqual([])
  })
})
