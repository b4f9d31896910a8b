/**
 * `@fhir-auth/sandbox`: local authorization servers for fhir-auth's integration tests, the demo
 * and the benchmarks. Loopback only, never published.
 *
 * @packageDocumentation
 */

export type {
  AuthorizeOptions,
  AuthorizeRequest,
  AuthorizeResult,
  ConsentDecision,
} from './http/headless-user-agent.js'
export type { RecordedRequest } from './http/recorded-request.js'
export { type ClientKeyAlgorithm, type ClientKeys, generateClientKeys } from './keys.js'
export {
  type LocalSandboxes,
  type LocalSandboxesDescription,
  type LocalSandboxesOptions,
  startLocalSandboxes,
} from './local/local-sandboxes.js'
export { localSandboxesSummary } from './local/summary.js'
export type { UdapCommunityFiles } from './local/udap-community-files.js'
export {
  type DiscoveryOverride,
  type DiscoveryResponseOverride,
  type SmartConfigurationDocument,
  sandboxCapabilities,
} from './smart/discovery-document.js'
export { type IdTokenVariant, idTokenVariants } from './smart/id-token-variants.js'
export type { LaunchRequest } from './smart/launch-context.js'
export type {
  ClientAssertionAlgorithm,
  SandboxUser,
  SmartSandbox,
  SmartSandboxEndpoints,
  SmartSandboxOptions,
} from './smart/options.js'
export {
  type SandboxClient,
  type SandboxClientAuthMethod,
  sandboxDefaultRedirectUri,
} from './smart/sandbox-client.js'
export { startSmartSandbox } from './smart/start-smart-sandbox.js'
export type { TokenEndpointHooks } from './smart/token-endpoint-hooks.js'
export { oracleHealthTenant, type SandboxVendor, sandboxVendors } from './smart/vendor-modes.js'
export {
  type AuthenticationTokenRecord,
  type AuthorizationOutcome,
  type AuthorizationRequestRecord,
  type ClientJwtRule,
  dataHolderCommunityUri,
  defaultCommunityUri,
  defaultSandboxUser,
  type HostileAuthorizationVariant,
  type HostileDiscoveryVariant,
  type HostileVariant,
  hostileAuthorizationVariants,
  hostileDiscoveryVariants,
  type IssuedAccessToken,
  identityProviderCommunityUri,
  type PkiObject,
  type RegisteredClientMetadata,
  startTieredOAuthSandboxes,
  startUdapSandbox,
  type TieredIdentity,
  type TieredLoginRecord,
  type TieredLoginStage,
  type TieredOAuthSandboxes,
  type TieredOAuthSandboxesOptions,
  type TokenRequestRule,
  type UdapClientTrust,
  type UdapCrlVariants,
  type UdapGrantType,
  type UdapRegistration,
  type UdapRequestCounts,
  type UdapSandbox,
  type UdapSandboxEndpoints,
  type UdapSandboxOptions,
  type UdapSandboxUser,
  type UdapSigningAlgorithm,
  type UdapTieredOAuthOptions,
  type UdapTrust,
  udapSandboxPaths,
} from './udap/index.js'
