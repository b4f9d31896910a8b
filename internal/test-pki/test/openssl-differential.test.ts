/**
 * Differential test of the path policy against OpenSSL (DESIGN §11): a generated corpus of
 * chains (`src/corpus/`, fixed seed) and every committed fixture are judged by core's
 * `validateCertificateChain` and by `openssl verify -x509_strict -crl_check_all -purpose sslclient
 * -partial_chain -attime …`, and so is one chain per `-x509_strict` profile rule
 * (`src/corpus/strict-profile-cases.ts`). Every disagreement must be one of the listed exceptions
 * (`support/openssl-exceptions.ts`), each documented in docs/guides/udap.md; the test prints
 * `N/N agree`. It skips, saying so, only when the `openssl` binary is absent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CorpusCase,
  corpusReferenceTime,
  generateChainCorpus,
} from '../src/corpus/chain-corpus.js'
import {
  generateStrictProfileCases,
  strictProfileReferenceTime,
} from '../src/corpus/strict-profile-cases.js'
import { pathRuleLeaves, testLeaves, testPkiReferenceTime } from '../src/index.js'
import { listedExceptions, reasonsByOpenSslCode } from './support/openssl-exceptions.js'
import { type OpenSslVerdict, openSslVerdicts, openSslVersion } from './support/openssl-verify.js'
import { policyOutcome } from './support/policy-verdict.js'

const corpusSeed = 'fhir-auth differential corpus 1'
const corpusSize = 600
const version = await openSslVersion()
if (version === undefined) {
  console.warn(
    'openssl is not installed: the OpenSSL differential test of the certificate path policy is SKIPPED (install Debian openssl to run it)',
  )
}

interface Judged {
  readonly name: string
  readonly tags: readonly string[]
  readonly ours: string
  readonly theirs: OpenSslVerdict
}

async function judge(cases: readonly CorpusCase[], at: Date, directory: string) {
  const theirs = await openSslVerdicts(cases, { directory, at, concurrency: 4 })
  const judged: Judged[] = []
  for (const entry of cases) {
    const verdict = theirs.get(entry.name)
    if (verdict === undefined) throw new Error(`openssl gave no verdict for ${entry.name}`)
    judged.push({ ...entry, ours: (await policyOutcome(entry, at)).reason, theirs: verdict })
  }
  return judged
}

const agrees = (entry: Judged) => (entry.ours === 'ok') === entry.theirs.ok
const exceptionOf = (entry: Judged) =>
  listedExceptions.find((exception) => exception.explains(entry.tags, entry.ours, entry.theirs))
const describeOpenSsl = (verdict: OpenSslVerdict) =>
  verdict.ok ? 'OK' : `error ${verdict.code} at depth ${verdict.depth}: ${verdict.text}`

/** `N/N agree`, then the listed exceptions by id. */
function summary(judged: readonly Judged[]): string {
  const agreeing = judged.filter(agrees).length
  const byException = new Map<string, number>()
  for (const entry of judged.filter((candidate) => !agrees(candidate))) {
    const id = exceptionOf(entry)?.id ?? 'UNEXPLAINED'
    byException.set(id, (byException.get(id) ?? 0) + 1)
  }
  const exceptions = [...byException].map(([id, count]) => `${id} ${count}`).join(', ')
  return `${agreeing}/${judged.length} agree${exceptions === '' ? '' : `; the others are listed exceptions: ${exceptions}`}`
}

describe.skipIf(version === undefined)(`the path policy agrees with ${version}`, () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'fhir-auth-openssl-differential-'))
  })
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  it(`on ${corpusSize} generated chains (seed "${corpusSeed}")`, async () => {
    const started = performance.now()
    const corpus = await generateChainCorpus({ seed: corpusSeed, size: corpusSize })
    const generated = performance.now()
    const judged = await judge(corpus, corpusReferenceTime, join(directory, 'corpus'))
    const refusedByBoth = judged.filter((entry) => entry.ours !== 'ok' && !entry.theirs.ok)
    const sameReason = refusedByBoth.filter(
      (entry) =>
        !entry.theirs.ok && (reasonsByOpenSslCode[entry.theirs.code] ?? []).includes(entry.ours),
    )
    console.log(
      [
        `OpenSSL differential, corpus: ${summary(judged)}.`,
        `Both refuse ${refusedByBoth.length}, for a corresponding reason ${sameReason.length} (the others break several rules, which the two check in another order).`,
        `Generated in ${Math.round(generated - started)} ms, judged in ${Math.round(performance.now() - generated)} ms.`,
      ].join(' '),
    )
    const unexplained = judged.filter((entry) => !agrees(entry) && exceptionOf(entry) === undefined)
    expect(
      unexplained.map(
        (entry) =>
          `${entry.name}: fhir-auth ${entry.ours}, openssl ${describeOpenSsl(entry.theirs)} [${entry.tags.join(' ')}]`,
      ),
    ).toEqual([])
    // The corpus exercises every rule on both sides of the verdict.
    const reasons = new Set(judged.map((entry) => entry.ours))
    for (const reason of [
      'ok',
      'key-usage',
      'path-length',
      'name-constraints',
      'unknown-critical-extension',
      'not-a-ca',
      'expired',
      'not-yet-valid',
      'revoked',
      'crl-missing',
      'crl-stale',
      'crl-bad-signature',
      'bad-signature',
    ]) {
      expect(reasons, `no corpus case ends in ${reason}`).toContain(reason)
    }
  }, 180_000)

  it('on every committed fixture, for the same reason', async () => {
    // Each committed case breaks exactly one rule, so OpenSSL's error must say the same.
    const fixtures = [...testLeaves, ...pathRuleLeaves].map((leaf) => ({
      name: leaf.name,
      tags:
        {
          'wrong-order': ['chain:order-swapped'],
          'key-usage-absent': ['intermediate-1:key-usage-absent'],
        }[leaf.name] ?? [],
      chainDer: leaf.chainDer,
      trustAnchorsDer: leaf.trustAnchorsDer,
      crlsDer: leaf.crlsDer,
    }))
    const judged = await judge(fixtures, testPkiReferenceTime, join(directory, 'fixtures'))
    console.log(`OpenSSL differential, committed fixtures: ${summary(judged)}.`)
    expect(
      judged
        .filter((entry) => !agrees(entry) && exceptionOf(entry) === undefined)
        .map(
          (entry) =>
            `${entry.name}: fhir-auth ${entry.ours}, openssl ${describeOpenSsl(entry.theirs)}`,
        ),
    ).toEqual([])
    const otherReason = judged.filter(
      (entry) =>
        !entry.theirs.ok &&
        entry.ours !== 'ok' &&
        !(reasonsByOpenSslCode[entry.theirs.code] ?? []).includes(entry.ours),
    )
    expect(
      otherReason.map(
        (entry) =>
          `${entry.name}: fhir-auth ${entry.ours}, openssl ${describeOpenSsl(entry.theirs)}`,
      ),
    ).toEqual([])
  }, 60_000)

  it('on one chain per -x509_strict profile rule, for the same reason', async () => {
    // Each case breaks one rule (key identifiers, critical basicConstraints on CAs, path length
    // or keyCertSign without cA, an empty subject, critical key identifiers or cRLNumber, an EC
    // point off its curve) or is its conforming twin (`…-ok`).
    const cases = await generateStrictProfileCases()
    const judged = await judge(cases, strictProfileReferenceTime, join(directory, 'strict'))
    console.log(`OpenSSL differential, -x509_strict profile chains: ${summary(judged)}.`)
    expect(
      judged
        .filter((entry) => entry.name.endsWith('-ok') !== (entry.ours === 'ok'))
        .map((entry) => `${entry.name}: fhir-auth ${entry.ours}`),
    ).toEqual([])
    expect(
      judged
        .filter(
          (entry) =>
            !agrees(entry) ||
            (!entry.theirs.ok &&
              !(reasonsByOpenSslCode[entry.theirs.code] ?? []).includes(entry.ours)),
        )
        .map(
          (entry) =>
            `${entry.name}: fhir-auth ${entry.ours}, openssl ${describeOpenSsl(entry.theirs)}`,
        ),
    ).toEqual([])
  }, 60_000)

  it('lists every exception, with its reason, in the UDAP guide', async () => {
    const guide = await readFile(
      join(import.meta.dirname, '..', '..', '..', 'docs', 'guides', 'udap.md'),
      'utf8',
    )
    for (const exception of listedExceptions) {
      expect(guide, `docs/guides/udap.md has no row for ${exception.id}`).toMatch(
        new RegExp(`^\\| \`${exception.id}\` \\|`, 'm'),
      )
    }
  })
})
