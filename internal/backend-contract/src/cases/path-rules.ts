import { CertificateChainError } from '@fhir-auth/core'
import { pathRuleLeaves, testPkiReferenceTime } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'

/**
 * Every verdict of the path-rule fixtures (DESIGN §11: key usage, path length, name
 * constraints, unknown critical extensions, CRL scope), with the certificate each refusal names:
 * the same answer from every backend, because the policy is core's and backends only verify
 * signatures.
 */
export function describePathRules(context: ContractContext): void {
  describe('verifyCertificateChain: RFC 5280 path rules', () => {
    for (const entry of pathRuleLeaves) {
      it(`${entry.name}: ${entry.expected} (${entry.description})`, async () => {
        const outcome = await context
          .backend()
          .verifyCertificateChain({
            chain: entry.chainDer,
            trustAnchors: entry.trustAnchorsDer,
            crls: entry.crlsDer,
            at: testPkiReferenceTime,
          })
          .then(
            () => ({ reason: 'ok', subject: undefined }),
            (error: unknown) => {
              if (!(error instanceof CertificateChainError)) throw error
              return { reason: error.reason, subject: error.subject }
            },
          )
        expect(outcome).toEqual({ reason: entry.expected, subject: entry.failingSubject })
      })
    }
  })
}
