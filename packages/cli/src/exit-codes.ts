import { FhirAuthError } from '@fhir-auth/core'
import { causeLinks } from './cause-chain.js'

/**
 * The process exit codes of `fhir-auth`, part of its public interface (scripts branch on them):
 *
 * - `0` success;
 * - `1` a protocol or server failure: `DiscoveryError`, `TokenError`, `RegistrationError`,
 *   `HttpError` (also an unexpected internal failure);
 * - `2` a usage or configuration problem: unknown or missing flags, unreadable files,
 *   `ConfigurationError` (a plain-HTTP URL refused by the HTTPS policy included), and
 *   `CryptoError` (a local key, certificate or PKCS#12 file that cannot be used, e.g. a wrong
 *   password);
 * - `3` a trust failure: `CertificateChainError`, or a `DiscoveryError` caused by one or by a
 *   `signed_metadata` check.
 */
export const exitCodes = Object.freeze({ success: 0, failure: 1, usage: 2, trust: 3 } as const)

/** One of {@link exitCodes}. */
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]

/**
 * The exit code for an error thrown by a command. fhir-auth errors are told apart by their
 * stable `code` (not `instanceof`, which fails across two copies of the library).
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (isTrustFailure(error)) return exitCodes.trust
  if (!FhirAuthError.isFhirAuthError(error)) return exitCodes.failure
  if (error.code === 'ERR_CONFIGURATION' || error.code === 'ERR_CRYPTO') return exitCodes.usage
  // A URL the HTTPS policy refused before sending is the caller's configuration too.
  if (causeLinks(error).some(isInsecureUrlRefusal)) return exitCodes.usage
  return exitCodes.failure
}

function isInsecureUrlRefusal(link: unknown): boolean {
  const record = link as Record<string, unknown> | null
  return (
    FhirAuthError.isFhirAuthError(link) &&
    record?.code === 'ERR_HTTP' &&
    record.reason === 'insecure-url'
  )
}

/**
 * True when the error, or any error in its `cause` chain, says a certificate chain or
 * `signed_metadata` could not be trusted.
 */
export function isTrustFailure(error: unknown): boolean {
  for (const link of causeLinks(error)) {
    if (!FhirAuthError.isFhirAuthError(link)) return false
    if (link.code === 'ERR_CERTIFICATE_CHAIN') return true
    // DiscoveryError has no reason field: @fhir-auth/udap names every signed_metadata check
    // failure with this message prefix (signed-metadata.ts), the only stable marker there is.
    // Only the untrusted-chain check has a CertificateChainError cause (found by the line
    // above); the others have no cause, or a CryptoError one (an x5c entry that is no
    // certificate, a key or chain the backend cannot check), so they need the prefix.
    if (link.code === 'ERR_DISCOVERY' && link.message.startsWith('signed_metadata ')) return true
  }
  return false
}
