import { cryptoBackendSpecificationVersion } from '../crypto/backend-specification.js'
import { ConfigurationError } from '../errors/configuration-error.js'

/**
 * Refuses a crypto backend written for another version of the `CryptoBackend` contract. A
 * backend that states no `specificationVersion` was written before the field existed: version 1.
 *
 * @throws ConfigurationError on `crypto`.
 * @internal
 */
export function checkBackendVersion(backend: object): void {
  let version: unknown
  try {
    version = (backend as { readonly specificationVersion?: unknown }).specificationVersion
  } catch {
    version = 'unreadable'
  }
  if (version === undefined || version === cryptoBackendSpecificationVersion) return
  throw new ConfigurationError({
    invalidAttribute: 'crypto',
    invalidValue: version,
    validValues: [String(cryptoBackendSpecificationVersion)],
    message: `crypto implements CryptoBackend specification ${String(version)}; this version of fhir-auth implements ${cryptoBackendSpecificationVersion}`,
  })
}
