/**
 * The UDAP Security STU2 authorization server of the sandbox: see {@link startUdapSandbox}.
 *
 * @packageDocumentation
 */

export type { ClientJwtRule } from './client-jwt-verification.js'
export type { RegisteredClientMetadata } from './client-metadata-rules.js'
export {
  type HostileAuthorizationVariant,
  type HostileDiscoveryVariant,
  type HostileVariant,
  hostileAuthorizationVariants,
  hostileDiscoveryVariants,
} from './hostile-variants.js'
export type {
  IssuedAccessToken,
  UdapClientTrust,
  UdapGrantType,
  UdapRequestCounts,
  UdapSandbox,
  UdapSandboxEndpoints,
  UdapSandboxOptions,
  UdapSigningAlgorithm,
  UdapTieredOAuthOptions,
} from './options.js'
export type { PkiObject, UdapCrlVariants, UdapTrust } from './pki-object.js'
export type {
  AuthenticationTokenRecord,
  AuthorizationOutcome,
  AuthorizationRequestRecord,
  TieredIdentity,
  TieredLoginRecord,
  TieredLoginStage,
  TokenRequestRule,
} from './records.js'
export type { UdapRegistration } from './registration-store.js'
export { defaultSandboxUser, type UdapSandboxUser } from './sandbox-user.js'
export {
  dataHolderCommunityUri,
  identityProviderCommunityUri,
  startTieredOAuthSandboxes,
  type TieredOAuthSandboxes,
  type TieredOAuthSandboxesOptions,
} from './start-tiered-oauth-sandboxes.js'
export { startUdapSandbox, udapSandboxPaths } from './start-udap-sandbox.js'
export { defaultCommunityUri } from './udap-settings.js'
