import {
  type CertificateChainError,
  type ConfigurationError,
  type CryptoError,
  FhirAuthError,
} from '@fhir-auth/core'

/*
 * Errors from a crypto backend are recognised by their stable `code`, not by `instanceof`: a
 * backend may have been built against another copy of `@fhir-auth/core` (two installed
 * versions, or a bundle), whose classes are different objects.
 */

/** True for a `CryptoError` from any copy of core. @internal */
export function isCryptoError(error: unknown): error is CryptoError {
  return FhirAuthError.isFhirAuthError(error) && error.code === 'ERR_CRYPTO'
}

/** True for a `CertificateChainError` from any copy of core. @internal */
export function isCertificateChainError(error: unknown): error is CertificateChainError {
  return FhirAuthError.isFhirAuthError(error) && error.code === 'ERR_CERTIFICATE_CHAIN'
}

/** True for a `ConfigurationError` from any copy of core. @internal */
export function isConfigurationError(error: unknown): error is ConfigurationError {
  return FhirAuthError.isFhirAuthError(error) && error.code === 'ERR_CONFIGURATION'
}
