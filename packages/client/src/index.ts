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
  Jwk,
  JwsSigner,
  KeyValueStore,
  LogFields,
  Logger,
  MemoryStoreOptions,
  Pkcs12Contents,
  PrivateKeyInput,
  SigningAlgorithm,
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
  memoryStore,
  RegistrationError,
  StoreError,
  silentLogger,
  TokenError,
  TokenSet,
  webStorageStore,
} from '@fhir-auth/core/internal/up-front'
export type { IdTokenClaims } from '@fhir-auth/core/oidc'
export type { RegistrationResponse, SmartMetadata, TokenResponse } from '@fhir-auth/smart'
export type { UdapMetadata, UdapRevocationOptions } from '@fhir-auth/udap'
export { Client } from './client.js'
export type { ClientOptions } from './client-options.js'
export { type ClientType, clientTypes, type Protocol } from './client-type.js'
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
  type TokensListener,
} from './session/session.js'
export type {
  OpenSessionOptions,
  SessionStore,
  SessionStoreOptions,
} from './session/session-store.js'
export { BackendTokens } from './tokens/backend-tokens.js'
export type { BearerFetchInput } from './tokens/bearer-fetch.js'
