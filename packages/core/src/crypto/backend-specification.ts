/**
 * The version of the `CryptoBackend` contract this release of fhir-auth implements and
 * expects. A backend states the version it was written for in `specificationVersion`; the
 * library refuses a backend of another version with a `ConfigurationError` on `crypto` rather
 * than failing later in an operation. The number changes only when the interface or one of its
 * promises (error types, verdicts) changes incompatibly.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/crypto-backends.md
 */
export const cryptoBackendSpecificationVersion = 1
