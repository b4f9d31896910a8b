import type { CryptoBackend } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  compareInterleaved,
  type InterleavedComparison,
} from '../measurement/interleaved-comparison.js'
import { describeComparison, distributionValues } from '../report/distribution.js'
import type { Figure, SectionReport } from '../report/figure.js'
import { roundTo } from '../report/format.js'
import { type ChainFixture, chainFixture } from './chain-fixture.js'
import { compareChainPolicies } from './chain-policy-comparison.js'
import {
  type RawSignatureChecks,
  rawNodeSignatureChecks,
  rawWebCryptoSignatureChecks,
} from './raw-signature-checks.js'
import { rawNodeSigner, rawWebCryptoSigner } from './raw-signers.js'
import { measureReaderGrowth } from './reader-growth.js'
import { generateSigningKeys, typicalSigningInput } from './signing-keys.js'

const signingPlan = { warmupIterations: 30, samples: 250 }
const chainPlan = { warmupIterations: 20, samples: 120 }

interface BackendUnderTest {
  readonly name: 'crypto-node' | 'crypto-webcrypto'
  readonly baselineName: string
  readonly backend: CryptoBackend
}

/**
 * Figure 4: the crypto backends against the platform APIs they wrap, as ratios measured in one
 * run. Signing: ES384 (P-384) and RS384 (RSA 2048), each backend's signer against a direct
 * `crypto.sign` / `subtle.sign` with the same key. Chain: a 3-certificate chain with one CRL per
 * CA from the committed test PKI (RSA and EC communities), each backend's
 * `verifyCertificateChain` (steady state: same backend, caches warm) against the floor of just
 * the four signature checks it must make; and the same chains through the path policy now
 * against the policy before DESIGN §11 (goal ≤ 1.10×, see `chain-policy-comparison.ts`). And how
 * the DER and PEM readers' time grows when their input doubles (goal ≤ 3.5×: linear, see
 * `reader-growth.ts`).
 */
export async function runCryptoSection(): Promise<SectionReport> {
  const backends: readonly BackendUnderTest[] = [
    { name: 'crypto-node', baselineName: 'node:crypto', backend: createNodeCryptoBackend() },
    { name: 'crypto-webcrypto', baselineName: 'WebCrypto', backend: createWebCryptoBackend() },
  ]
  const figures: Figure[] = []
  const details: string[] = []
  for (const key of generateSigningKeys()) {
    for (const { name, baselineName, backend } of backends) {
      const signer = await backend.importSigner(key.privateKeyPem, {
        profile: 'smart',
        kid: 'bench',
      })
      if (signer.alg !== key.algorithm)
        throw new Error(`${name} chose ${signer.alg} for a ${key.algorithm} key`)
      const rawSign = name === 'crypto-node' ? rawNodeSigner(key) : await rawWebCryptoSigner(key)
      const comparison = await compareInterleaved(
        { name: baselineName, run: () => rawSign(typicalSigningInput) },
        { name, run: () => signer.sign(typicalSigningInput) },
        signingPlan,
      )
      figures.push(
        ratioFigure(
          `crypto.sign.${key.algorithm}.${name}`,
          `${key.algorithm} sign, ${name} vs ${baselineName}`,
          comparison,
        ),
      )
    }
  }
  const chains = [
    chainFixture('rsa-client', 'RSA chain (4096 ← 3072 ← 2048), 2 CRLs'),
    chainFixture('ec-p384-client', 'EC chain (P-384 ← P-384 ← P-384), 2 CRLs'),
  ]
  for (const chain of chains) {
    for (const { name, baselineName, backend } of backends) {
      const floor =
        name === 'crypto-node'
          ? rawNodeSignatureChecks(chain.requiredSignatures)
          : await rawWebCryptoSignatureChecks(chain.requiredSignatures)
      await expectFloorVerifies(floor, chain)
      const comparison = await compareInterleaved(
        { name: `4 × ${baselineName} verify`, run: floor },
        { name, run: () => backend.verifyCertificateChain(chain.parameters) },
        chainPlan,
      )
      const kind = chain.description.slice(0, chain.description.indexOf(' '))
      figures.push(
        ratioFigure(
          `crypto.chain.${kind}.${name}`,
          `${kind} 3-cert chain + CRLs, ${name} vs 4 raw verifies`,
          comparison,
        ),
      )
    }
    details.push(
      `${chain.description}: ${chain.requiredSignatures.map((signature) => `${signature.what} ${signature.algorithm}`).join(', ')}`,
    )
  }
  const policies = await compareChainPolicies(chains)
  figures.push(...policies.figures)
  details.push(...policies.details)
  const readers = measureReaderGrowth()
  figures.push(...readers.figures)
  details.push(...readers.details)
  details.push(
    'signing baselines call crypto.sign (callback, thread pool) or subtle.sign with a key imported once; chain baselines verify the four signatures with keys imported once and nothing else',
  )
  return { id: 'crypto', title: 'Crypto backends vs the platform', figures, details }
}

function ratioFigure(id: string, label: string, comparison: InterleavedComparison): Figure {
  return {
    id,
    label,
    goal: '—',
    measured: describeComparison(comparison),
    verdict: 'info',
    values: {
      ratio: roundTo(comparison.ratio, 3),
      fastestRatio: roundTo(comparison.fastestRatio, 3),
      subject: distributionValues(comparison.subject),
      baseline: distributionValues(comparison.baseline),
      baselineName: comparison.baselineName,
    },
  }
}

async function expectFloorVerifies(floor: RawSignatureChecks, chain: ChainFixture): Promise<void> {
  if (!(await floor())) {
    throw new Error(
      `the raw signature checks of the ${chain.description} do not verify: the baseline is wrong`,
    )
  }
}
