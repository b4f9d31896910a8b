/**
 * `@fhir-auth/client`: the `Client` facade for SMART App Launch 2.2.0 and UDAP Security STU2,
 * plus everything a `Client` user needs from the other packages, so one import is enough.
 *
 * @packageDocumentation
 */

export {
  AuthorizationError,
  type AuthorizationErrorFields,
  type BasicAuthEncoding,
  CertificateChainError,
  type CertificateChainFailureReason,
  type CertificateInput,
  ClientConfig,
  type ClientConfigInput,
  type Clock,
  ConfigurationError,
  type CrlInput,
  type CryptoBackend,
  CryptoError,
  type CryptoErrorReason,
  consoleLogger,
  DiscoveryError,
  type ExpiryCheckOptions,
  type FetchLike,
  FhirAuthError,
  type FhirAuthErrorCode,
  type FhirContextItem,
  HttpError,
  type HttpErrorReason,
  IdTokenError,
  type IdTokenFailureReason,
  type Jwk,
  type JwsSigner,
  type KeyValueStore,
  type LogFields,
  type Logger,
  type MemoryStoreOptions,
  memoryStore,
  type Pkcs12Contents,
  type PrivateKeyInput,
  RegistrationError,
  type SigningAlgorithm,
  StoreError,
  type StoreOperation,
  silentLogger,
  TokenError,
  TokenSet,
  type TokenSetBinding,
  type WebStorageLike,
  type WebStorageStoreOptions,
  webStorageStore,
} from '@fhir-auth/core/essentials'
export type { IdTokenClaims } from '@fhir-auth/core/oidc'
export type { RegistrationResponse, SmartMetadata, TokenResponse } from '@fhir-auth/smart'
export type { UdapMetadata } from '@fhir-auth/udap'
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
