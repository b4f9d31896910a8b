import type { ChainValidationInput, SignatureVerifier } from '@fhir-auth/core/internal'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { compareInterleaved } from '../measurement/interleaved-comparison.js'
import { describeComparison, distributionValues } from '../report/distribution.js'
import { type Figure, verdictForLimit } from '../report/figure.js'
import { roundTo } from '../report/format.js'
import type { ChainFixture } from './chain-fixture.js'
import {
  loadPolicyVersions,
  type PathPolicyModule,
  policyBaselineCommit,
} from './policy-versions.js'

/** The 3-certificate chain check may cost at most this much more than before DESIGN §11. */
export const chainPolicyRatioGoal = 1.1

const plan = { warmupIterations: 50, samples: 400 }

/**
 * The 3-certificate chain check (leaf, intermediate, anchor; two CRLs) with the current path
 * policy against the policy before DESIGN §11 ({@link loadPolicyVersions}: both bundled the
 * same way), in one run,
 * interleaved, both verifying signatures with crypto-node's `verifySignature`:
 *
 * - parse and check: the DER of 3 certificates and 2 CRLs parsed, then the policy (what a
 *   backend without a parse cache does on every call);
 * - check only: inputs parsed once by each version's own parser (crypto-node's steady state,
 *   whose parse caches are warm).
 */
export async function compareChainPolicies(
  chains: readonly ChainFixture[],
): Promise<{ figures: Figure[]; details: string[] }> {
  const { before, now } = await loadPolicyVersions()
  const backend = createNodeCryptoBackend()
  const verify: SignatureVerifier = (check) => backend.verifySignature(check)
  const figures: Figure[] = []
  for (const chain of chains) {
    const kind = chain.description.slice(0, chain.description.indexOf(' '))
    const checkOf = (policy: PathPolicyModule) => {
      const parsed = parsedInput(policy, chain)
      return {
        parseAndCheck: () => policy.validateCertificateChain(parsedInput(policy, chain), verify),
        checkOnly: () => policy.validateCertificateChain(parsed, verify),
      }
    }
    const old = checkOf(before)
    const current = checkOf(now)
    await old.checkOnly()
    await current.checkOnly()
    for (const [mode, label] of [
      ['parseAndCheck', 'parse + check'],
      ['checkOnly', 'check, parsed once'],
    ] as const) {
      const comparison = await compareInterleaved(
        { name: 'policy before §11', run: old[mode] },
        { name: 'policy now', run: current[mode] },
        plan,
      )
      figures.push({
        id: `crypto.chainPolicy.${kind}.${mode}`,
        label: `${kind} 3-cert chain, ${label}: policy now vs before §11`,
        goal: `≤ ${chainPolicyRatioGoal.toFixed(2)}×`,
        measured: describeComparison(comparison),
        verdict: verdictForLimit(comparison.ratio, chainPolicyRatioGoal),
        values: {
          ratio: roundTo(comparison.ratio, 3),
          fastestRatio: roundTo(comparison.fastestRatio, 3),
          subject: distributionValues(comparison.subject),
          baseline: distributionValues(comparison.baseline),
          baselineCommit: policyBaselineCommit,
        },
      })
    }
  }
  return {
    figures,
    details: [
      `chain policy: core's src/ at ${policyBaselineCommit.slice(0, 7)} (before DESIGN §11, from git history) vs the working tree, both bundled by esbuild with the same settings; both verify with crypto-node's verifySignature`,
    ],
  }
}

function parsedInput(policy: PathPolicyModule, chain: ChainFixture): ChainValidationInput {
  const { parameters } = chain
  return {
    chain: parameters.chain.map((der) => policy.parseCertificate(der as Uint8Array)),
    trustAnchors: parameters.trustAnchors.map((der) => policy.parseCertificate(der as Uint8Array)),
    crls: parameters.crls.map((der) => policy.parseCrl(der as Uint8Array)),
    at: parameters.at,
  }
}
