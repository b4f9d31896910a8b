import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pathRuleLeaves, testPkiReferenceTime } from '../src/index.js'
import { ownChainOutcome, policyOutcome } from './support/policy-verdict.js'

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'path-rules')
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'))

describe('the path-rule fixtures', () => {
  it('has a broken and a satisfied case for every rule of DESIGN §11', () => {
    const verdicts = new Set(pathRuleLeaves.map((entry) => entry.expected))
    for (const reason of [
      'ok',
      'key-usage',
      'path-length',
      'name-constraints',
      'unknown-critical-extension',
      'crl-missing',
    ]) {
      expect(verdicts).toContain(reason)
    }
    expect(pathRuleLeaves.map((entry) => entry.name)).toEqual(Object.keys(manifest.cases))
  })

  for (const entry of pathRuleLeaves) {
    describe(entry.name, () => {
      it(`validates to ${entry.expected} (${entry.description})`, async () => {
        const outcome = await policyOutcome(entry, testPkiReferenceTime)
        expect(outcome).toEqual({ reason: entry.expected, subject: entry.failingSubject })
      })

      it(`passes the client's own check as ${entry.expectedOwnChain}`, async () => {
        const outcome = await ownChainOutcome(entry.chainDer, testPkiReferenceTime)
        expect(outcome.reason).toBe(entry.expectedOwnChain)
        if (entry.expectedOwnChain !== 'ok') expect(outcome.subject).toBe(entry.failingSubject)
      })

      it('matches its files on disk', () => {
        expect(readFileSync(join(fixtures, 'cases', entry.name, 'chain.pem'), 'utf8')).toBe(
          entry.chainPem,
        )
        expect(manifest.cases[entry.name].expected).toBe(entry.expected)
      })
    })
  }
})
