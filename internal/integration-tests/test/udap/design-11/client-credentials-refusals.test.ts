/**
 * DESIGN §11 (second paragraph): before signing with its own certificateChain — here, UDAP authentication tokens for client_credentials — the client checks the chain (order, signatures within the chain, CA flags,
 * validity, key usage, path length, name constraints, unknown critical extensions); a bad chain
 * is refused locally with a CertificateChainError naming the reason, and nothing is sent.
 */
import { describe } from 'vitest'
import { describeLocalRefusals } from './support/local-refusal-suite.js'
import { clientCredentialsOperations } from './support/operations.js'

describe('DESIGN §11: a bad own chain is refused locally — UDAP authentication tokens for client_credentials', () => {
  describeLocalRefusals(clientCredentialsOperations)
})
