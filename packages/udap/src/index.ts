/**
 * `@fhir-auth/udap`: stateless UDAP Security STU2 client functions — trusted discovery with
 * `signed_metadata` validation, software statements, registration, modification and
 * cancellation, the authorization-code flow (consumer-facing and interactive B2B apps, Tiered
 * OAuth's `idp`), and token requests authenticated by UDAP Authentication Tokens (authorization
 * code, refresh, client_credentials with the `hl7-b2b` extension) — plus the parsers and validators that do no I/O. Each function takes
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
export {
  exchangeUdapAuthorizationCode,
  type UdapAuthorizationCodeOptions,
} from './authorization-code.js'
export {
  type AuthorizationExtensionsInput,
  buildAuthorizationExtensions,
  requireAuthorizationExtensions,
} from './authorization-extensions.js'
export {
  type AuthorizationRequest,
  buildUdapAuthorizationRequest,
  tieredOAuthScope,
  type UdapAuthorizationRequestOptions,
} from './authorization-request.js'
export { type B2bExtensionInput, b2bExtensionKey, buildB2bExtension } from './b2b-extension.js'
export {
  type B2bUserExtensionInput,
  b2bUserExtensionKey,
  buildB2bUserExtension,
} from './b2b-user-extension.js'
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
export { refreshUdapAccessToken, type UdapRefreshOptions } from './refresh.js'
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
export type { UdapTokenRequestCommon } from './token-request.js'
export { parseUdapTokenResponse, type TokenResponse } from './token-response.js'
export {
  checkUdapTrustInputs,
  createRevocationCache,
  type UdapRevocationOptions,
  type UdapTrustInputs,
} from './trust-inputs.js'
export { UdapMetadata, type UdapMetadataSource } from './udap-metadata.js'
