/**
 * `@fhir-auth/core/internal`: helpers shared between fhir-auth packages (DER, X.509, CRLs and
 * the certificate path validation policy). Not a public API: it may change in any release.
 *
 * @internal
 * @packageDocumentation
 */
export {}
