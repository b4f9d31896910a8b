/**
 * `@fhir-auth/udap`: stateless UDAP Security STU2 client functions — trusted discovery with
 * `signed_metadata` validation, software statements, registration, modification and
 * cancellation, and UDAP Authentication Tokens for the client_credentials grant (with the
 * `hl7-b2b` extension) — plus the parsers and validators that do no I/O. Each function takes
 * one options object; all crypto goes through a `CryptoBackend`. The `Client` in
 * `@fhir-auth/client` is a stateful facade over them.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/
 * @packageDocumentation
 */

export {
  type CreateAuthenticationTokenOptions,
  createAuthenticationToken,
} from './authentication-token.js'
export { type B2bExtensionInput, b2bExtensionKey, buildB2bExtension } from './b2b-extension.js'
export {
  jwtBearerClientAssertionType,
  requestUdapClientCredentialsToken,
  type UdapClientCredentialsOptions,
} from './client-credentials.js'
export { type DiscoverUdapOptions, discoverUdapMetadata } from './discovery.js'
export { udapDiscoveryUrl } from './discovery-url.js'
export {
  type ParsedUdapMetadata,
  type ParseUdapMetadataOptions,
  parseUdapMetadata,
  type UdapMetadataDocument,
} from './metadata-document.js'
export {
  cancelUdapRegistration,
  parseUdapRegistrationResponse,
  type RegistrationResponse,
  registerUdapClient,
  type UdapRegistrationOperation,
  type UdapRegistrationRequestOptions,
} from './registration.js'
export {
  type NormalizeRegistrationMetadataOptions,
  normalizeRegistrationMetadata,
  type RegistrationClaims,
  type UdapGrantType,
} from './registration-metadata.js'
export { udapJwtLifetimeSeconds } from './signed-jwt.js'
export {
  signedMetadataClockSkewSeconds,
  signedMetadataMaxLifetimeSeconds,
  type VerifiedSignedMetadata,
  type VerifySignedMetadataOptions,
  verifySignedMetadata,
} from './signed-metadata.js'
export {
  type PrepareUdapSignerOptions,
  prepareUdapSigner,
  type UdapSigningIdentity,
} from './signing-identity.js'
export {
  type CreateSoftwareStatementOptions,
  createSoftwareStatement,
} from './software-statement.js'
export { parseUdapTokenResponse, type TokenResponse } from './token-response.js'
export { checkUdapTrustInputs, type UdapTrustInputs } from './trust-inputs.js'
export { UdapMetadata, type UdapMetadataSource } from './udap-metadata.js'
