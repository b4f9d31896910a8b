/**
 * `@fhir-auth/core/essentials`: the main entry without the HTTP request path (`sendRequest` and
 * the JSON body readers) — configuration, typed errors, logging and redaction, the crypto backend
 * interfaces, base64url, PKCE, `state`/`jti`, the clock, stores, `TokenSet` and the shared OAuth
 * types. The same classes and functions as `@fhir-auth/core` (one module each), so `instanceof`
 * holds across the two entries.
 *
 * It exists for load time (ADR 0012): a bundler that splits code per dynamic import puts every
 * file an entry re-exports into the chunk of whoever imports the entry. Code that loads before an
 * app does anything imports this entry, so the request path loads with the first request.
 *
 * @packageDocumentation
 */

export { ClientConfig, type ClientConfigInput } from './config/client-config.js'
// JWS assembly and algorithm selection live in `@fhir-auth/core/jws`: only signing clients need
// them, and keeping them out of this entry keeps them out of public clients' browser bundles.
export type { AlgorithmSelection, KeyDescription } from './crypto/algorithms.js'
export type {
  CertificateInfo,
  CertificateInput,
  CrlInput,
  CryptoBackend,
  ImportSignerOptions,
  KeyProfile,
  Pkcs12Contents,
  PrivateKeyInput,
  SignatureCheck,
  VerificationAlgorithm,
  VerifiedCertificateChain,
  VerifyCertificateChainParams,
} from './crypto/backend.js'
export { cryptoBackendSpecificationVersion } from './crypto/backend-specification.js'
export {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  base64UrlEncodeText,
} from './crypto/base64.js'
export { type CryptoKeyLike, isJwk, type Jwk, type KeyObjectLike } from './crypto/jwk.js'
export type { JsonObject } from './crypto/jws.js'
export type { DecodedJws } from './crypto/jws-decode.js'
export { computeCodeChallenge, generateCodeVerifier, isValidCodeVerifier } from './crypto/pkce.js'
export { generateJti, generateState, randomBytes } from './crypto/random.js'
export {
  isJwsSigner,
  type JwsSigner,
  type SigningAlgorithm,
  signingAlgorithms,
} from './crypto/signer.js'
export {
  AuthorizationError,
  type AuthorizationErrorFields,
} from './errors/authorization-error.js'
export {
  ConfigurationError,
  type ConfigurationErrorFields,
  describeValue,
} from './errors/configuration-error.js'
export {
  CertificateChainError,
  type CertificateChainFailureReason,
  CryptoError,
  type CryptoErrorReason,
} from './errors/crypto-error.js'
export { DiscoveryError, type DiscoveryErrorFields } from './errors/discovery-error.js'
export {
  FhirAuthError,
  type FhirAuthErrorCode,
  type FhirAuthErrorOptions,
} from './errors/fhir-auth-error.js'
export { HttpError, type HttpErrorFields, type HttpErrorReason } from './errors/http-error.js'
export { IdTokenError, type IdTokenFailureReason } from './errors/id-token-error.js'
export { type OAuthErrorFields, RegistrationError, TokenError } from './errors/oauth-error.js'
export { type OAuthErrorBody, parseOAuthErrorBody } from './errors/oauth-error-body.js'
export { StoreError, type StoreOperation } from './errors/store-error.js'
export {
  type BasicAuthEncoding,
  basicAuthEncodings,
  basicAuthorization,
  encodeForm,
  formEncodingChanges,
  formUrlEncode,
} from './http/encoding.js'
export { isJsonObject, type JsonRecord } from './http/json-object.js'
// Types only: erased, so naming them here loads no request code.
export type { HttpRequest, HttpResponse } from './http/request.js'
export { safeUrl } from './http/safe-url.js'
export {
  defaultMaxResponseBytes,
  defaultTimeoutMs,
  type FetchLike,
  type TransportOptions,
} from './http/transport.js'
export {
  checkUrl,
  configuredUrlProblem,
  insecureUrlAdvice,
  isLoopbackHostname,
  isUsableUrl,
  normalizeBaseUrl,
  parseAbsoluteUrl,
  type UrlProblem,
  withoutUserInfo,
} from './http/url-policy.js'
// Through the internal entry on purpose (ADR 0012): whatever reaches this entry then reaches the
// internal one too, so a bundler keeps the files of both in one shared chunk (code split per
// dynamic import: a crypto backend's chunks reach this entry only, the client's reach both).
export { lazy, lazyImport } from './internal-checks.js'
export {
  consoleLogger,
  defaultLogger,
  type LogFields,
  type Logger,
  type LogLevel,
  silentLogger,
} from './logging/logger.js'
export {
  isSensitiveName,
  looksLikeJwt,
  redacted,
  redactFields,
  redactSecrets,
  redactUrl,
} from './logging/redact.js'
export type { AuthorizationRequest } from './oauth/authorization-request.js'
export type { RegistrationResponse } from './oauth/registration-response.js'
export type { TokenResponse } from './oauth/token-response.js'
export { type KeyValueStore, storeKeyPrefix } from './stores/key-value-store.js'
export { type MemoryStoreOptions, memoryStore } from './stores/memory-store.js'
export {
  type WebStorageLike,
  type WebStorageStoreOptions,
  webStorageStore,
} from './stores/web-storage-store.js'
export { type Clock, systemClock } from './time/clock.js'
export { epochSeconds } from './time/epoch-seconds.js'
export type { FhirContextItem } from './tokens/fhir-context.js'
export {
  type ExpiryCheckOptions,
  type TokenResponseInput,
  TokenSet,
  type TokenSetBinding,
  type TokenSetSource,
} from './tokens/token-set.js'
