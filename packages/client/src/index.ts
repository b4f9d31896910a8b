/**
 * `@fhir-auth/client`: the `Client` facade for SMART App Launch 2.2.0 and UDAP Security STU2,
 * plus everything a `Client` user needs from the other packages, so one import is enough.
 *
 * @packageDocumentation
 */

export type {
  AuthorizationErrorFields,
  BasicAuthEncoding,
  CertificateChainFailureReason,
  CertificateInput,
  ClientConfigInput,
  Clock,
  CrlInput,
  CryptoBackend,
  CryptoErrorReason,
  ExpiryCheckOptions,
  FetchLike,
  FhirAuthErrorCode,
  FhirContextItem,
  HttpErrorReason,
  IdTokenFailureReason,
  IndexedDbStoreOptions,
  Jwk,
  JwsSigner,
  KeyValueStore,
  LogFields,
  Logger,
  MemoryStoreOptions,
  Pkcs12Contents,
  PrivateKeyInput,
  SigningAlgorithm,
  StoreErrorReason,
  StoreOperation,
  TokenSetBinding,
  WebStorageLike,
  WebStorageStoreOptions,
} from '@fhir-auth/core/essentials'
// Values through the entry up-front code uses, so that an app importing this index reaches no
// file that only lazily loaded code needs (ADR 0012).
export {
  AuthorizationError,
  CertificateChainError,
  ClientConfig,
  ConfigurationError,
  CryptoError,
  consoleLogger,
  DiscoveryError,
  FhirAuthError,
  HttpError,
  IdTokenError,
  indexedDbStore,
  memoryStore,
  RegistrationError,
  StoreError,
  silentLogger,
  TokenError,
  TokenSet,
  webStorageStore,
} from '@fhir-auth/core/internal/up-front'
// From an entry of its own, which nothing else in the client imports: an app that never
// publishes keys has none of its code (ADR 0012).
export {
  type PublicJwk,
  type PublicJwks,
  type PublicJwksEntry,
  type PublicJwksKeyInput,
  publicJwks,
} from '@fhir-auth/core/keys'
export type { IdTokenClaims } from '@fhir-auth/core/oidc'
// The same modules `@fhir-auth/smart` re-exports; taken from core's own entry so that the client
// reaches no other file of smart's index. The client's own scope checks use the parser only
// through `TokenSet`'s reader (never an import), so an app that does not use it loads none of it.
export {
  type LaunchScopes,
  type ParseScopesOptions,
  parseScopes,
  type ResourceScope,
  type ScopeComparison,
  type ScopeContext,
  type ScopeInteraction,
  type ScopeQuery,
  ScopeSet,
} from '@fhir-auth/core/scopes'
export type { RegistrationResponse, SmartMetadata, TokenResponse } from '@fhir-auth/smart'
export type { UdapMetadata, UdapRevocationOptions } from '@fhir-auth/udap'
export { Client } from './client.js'
export type { ClientOptions, ScopeVersion } from './client-options.js'
export { type ClientType, clientTypes, type Protocol } from './client-type.js'
export type {
  DiagnoseOptions,
  DiagnosticCheck,
  DiagnosticCheckId,
  DiagnosticReport,
  DiagnosticStatus,
  InvalidClientCause,
} from './diagnostics/diagnostic-report.js'
export { ClientDirectory } from './directory/client-directory.js'
export type {
  ClientDirectoryOptions,
  ClientResolver,
  DirectoryBeginAuthorizationOptions,
  DirectorySessionsOptions,
} from './directory/directory-options.js'
export { type UdapFlow, udapFlows } from './flow.js'
export type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  B2bAuthorizationExtension,
  BackendTokensOptions,
  BeginAuthorizationOptions,
  BeginAuthorizationResult,
  CancellableOptions,
  CompleteAuthorizationOptions,
  CredentialOverrides,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  ResumeSessionOptions,
  SmartRegistrationOptions,
  TokenResponseCheckOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
  ValidateIdTokenOptions,
} from './operation-options.js'
export { loadPkcs12 } from './pkcs12.js'
export {
  type AccessTokenOptions,
  Session,
  type SessionRefreshOptions,
} from './session/session.js'
export type {
  OpenSessionOptions,
  SessionStore,
  SessionStoreOptions,
} from './session/session-store-types.js'
export type { TokensListener } from './session/tokens-listener.js'
export { BackendTokens } from './tokens/backend-tokens.js'
export type { BearerFetchInput } from './tokens/bearer-fetch.js'
