/**
 * The UDAP Security STU2 authorization server of the sandbox: see {@link startUdapSandbox}.
 *
 * @packageDocumentation
 */

export type { RegisteredClientMetadata } from './client-metadata-rules.js'
export { type HostileDiscoveryVariant, hostileDiscoveryVariants } from './hostile-variants.js'
export type {
  IssuedAccessToken,
  UdapClientTrust,
  UdapGrantType,
  UdapRequestCounts,
  UdapSandbox,
  UdapSandboxEndpoints,
  UdapSandboxOptions,
  UdapSigningAlgorithm,
} from './options.js'
export type { PkiObject, UdapCrlVariants, UdapTrust } from './pki-object.js'
export type { UdapRegistration } from './registration-store.js'
export { startUdapSandbox, udapSandboxPaths } from './start-udap-sandbox.js'
export { defaultCommunityUri } from './udap-settings.js'
