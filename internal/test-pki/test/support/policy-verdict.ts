/** The path policy's answer for raw DER inputs, as the test-pki tests compare it. */
import { CertificateChainError, CryptoError } from '@fhir-auth/core'
import {
  parseCertificate,
  parseCrl,
  validateCertificateChain,
  validateOwnCertificateChain,
} from '@fhir-auth/core/backend'
import { nodeSignatureVerifier } from '../node-verifier.js'

/**
 * `ok`, or the `CertificateChainError` reason and the subject it names, or the `CryptoError`
 * reason of a certificate or CRL the parser refuses (`invalid-certificate`, `invalid-crl`).
 */
export interface PolicyOutcome {
  readonly reason: string
  readonly subject: string | undefined
}

/** A chain as DER: leaf first, with its anchors and CRLs. */
export interface ChainInput {
  readonly chainDer: readonly Uint8Array[]
  readonly trustAnchorsDer: readonly Uint8Array[]
  readonly crlsDer: readonly Uint8Array[]
}

/** Full path validation (core's `validateCertificateChain`, node:crypto signatures) at `at`. */
export function policyOutcome(input: ChainInput, at: Date): Promise<PolicyOutcome> {
  return outcomeOf(() =>
    validateCertificateChain(
      {
        chain: input.chainDer.map(parseCertificate),
        trustAnchors: input.trustAnchorsDer.map(parseCertificate),
        crls: input.crlsDer.map(parseCrl),
        at,
      },
      nodeSignatureVerifier,
    ),
  )
}

/** The client's own check (`validateOwnCertificateChain`: no trust, no revocation) at `at`. */
export function ownChainOutcome(chainDer: readonly Uint8Array[], at: Date): Promise<PolicyOutcome> {
  return outcomeOf(() =>
    validateOwnCertificateChain(
      { chain: chainDer.map(parseCertificate), at },
      nodeSignatureVerifier,
    ),
  )
}

async function outcomeOf(run: () => Promise<unknown>): Promise<PolicyOutcome> {
  try {
    await run()
    return { reason: 'ok', subject: undefined }
  } catch (error) {
    if (error instanceof CryptoError) return { reason: error.reason, subject: undefined }
    if (!(error instanceof CertificateChainError)) throw error
    return { reason: error.reason, subject: error.subject }
  }
}
