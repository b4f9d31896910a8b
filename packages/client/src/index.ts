/**
 * `@fhir-auth/client`: the `Client` facade for SMART App Launch 2.2.0 and UDAP Security STU2,
 * plus everything a `Client` user needs from the other packages, so one import is enough.
 *
 * @packageDocumentation
 */

export {
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
  type FetchLike,
  FhirAuthError,
  type FhirAuthErrorCode,
  HttpError,
  type HttpErrorReason,
  type Jwk,
  type JwsSigner,
  type LogFields,
  type Logger,
  type Pkcs12Contents,
  type PrivateKeyInput,
  RegistrationError,
  type SigningAlgorithm,
  silentLogger,
  TokenError,
} from '@fhir-auth/core'
export type { RegistrationResponse, SmartMetadata, TokenResponse } from '@fhir-auth/smart'
export type { UdapMetadata } from '@fhir-auth/udap'
export { Client } from './client.js'
export type { ClientOptions } from './client-options.js'
export { type ClientType, clientTypes, type Protocol } from './client-type.js'
export type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  B2bAuthorizationExtension,
  CancellableOptions,
  CredentialOverrides,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  SmartRegistrationOptions,
  TokenResponseCheckOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from './operation-options.js'
export { loadPkcs12 } from './pkcs12.js'
