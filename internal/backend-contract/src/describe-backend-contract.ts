import type { CryptoBackend } from '@fhir-auth/core'
import { beforeAll, describe } from 'vitest'
import { describeAlgorithmSelection } from './cases/algorithm-selection.js'
import { describeCertificateChains } from './cases/certificate-chains.js'
import { describeCertificates } from './cases/certificates.js'
import { describeKeyImport } from './cases/key-import.js'
import { describePathRules } from './cases/path-rules.js'
import { describePkcs12 } from './cases/pkcs12.js'
import { describeSigning } from './cases/signing.js'
import type { BackendContractOptions, ContractContext } from './support/contract-context.js'

/**
 * Registers the contract every fhir-auth `CryptoBackend` passes, as Vitest `describe`/`it`
 * blocks. Call it at the top level of a test file; the backend is created once, in `beforeAll`.
 *
 * Runtime-agnostic (no `node:*`): the fixtures come from `@fhir-auth/test-pki` as data and
 * signatures are checked independently with jose, so the same suite runs in Node and Chromium.
 *
 * Covers: sign/verify round trips (RS256, RS384, ES256, ES384) verified by jose, ECDSA `r‖s`
 * lengths, `verifySignature` for RS/PS/ES signatures made by jose, the algorithm selection table,
 * key import from PKCS#8/PKCS#1/SEC1 PEM, JWK, extra native forms and `JwsSigner`,
 * `parseCertificate`, `keyMatchesCertificate`, every chain verdict of the test PKI at
 * `testPkiReferenceTime` (and the valid ones at the current time), every verdict of the path-rule
 * fixtures (key usage, path length, name constraints, critical extensions, CRL scope), required
 * CRLs, PKCS#12 in both
 * encodings, and typed errors for bad input.
 *
 * @example
 * ```ts
 * // packages/crypto-node/test/contract.test.ts
 * import { describeBackendContract } from '@fhir-auth/backend-contract'
 * import { createNodeCryptoBackend } from '../src/index.js'
 *
 * describeBackendContract('node', () => createNodeCryptoBackend(), { legacyPkcs12: 'supported' })
 * ```
 */
export function describeBackendContract(
  name: string,
  createBackend: () => CryptoBackend | Promise<CryptoBackend>,
  options: BackendContractOptions,
): void {
  describe(`CryptoBackend contract: ${name}`, () => {
    let backend: CryptoBackend | undefined
    beforeAll(async () => {
      backend = await createBackend()
    })
    const context: ContractContext = {
      options,
      backend: () => {
        if (backend === undefined)
          throw new Error('the backend under test was not created (createBackend failed)')
        return backend
      },
    }
    describeSigning(context)
    describeAlgorithmSelection(context)
    describeKeyImport(context)
    describeCertificates(context)
    describeCertificateChains(context)
    describePathRules(context)
    describePkcs12(context)
  })
}
