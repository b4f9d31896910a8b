import {
  CertificateChainError,
  type CertificateChainFailureReason,
} from '../errors/crypto-error.js'
import type { ParsedCertificate } from './certificate.js'

/**
 * Refuses a chain: throws the {@link CertificateChainError} with `reason`, naming the
 * certificate the failure is about in `subject`.
 */
export function failChain(
  reason: CertificateChainFailureReason,
  message: string,
  certificate?: ParsedCertificate,
): never {
  throw new CertificateChainError(reason, message, certificate?.subject)
}
