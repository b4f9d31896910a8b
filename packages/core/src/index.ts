/**
 * `@fhir-auth/core`: what every fhir-auth package shares — configuration, typed errors, the
 * HTTP transport policy, logging and redaction, the crypto backend interfaces, JWS assembly,
 * base64url, PKCE, `state`/`jti` generation and the clock.
 *
 * @packageDocumentation
 */

export { ClientConfig, type ClientConfigInput } from './config/client-config.js'
export {
  compatibleAlgorithms,
  selectSigningAlgorithm,
  type AlgorithmSelection,
  type KeyDescription,
} from './crypto/algorithms.js'
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
export {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  base64UrlEncodeText,
} from './crypto/base64.js'
export { ecdsaDerToJose, normalizeEcdsaSignature } from './crypto/ecdsa-signature.js'
export { isJwk, type CryptoKeyLike, type Jwk, type KeyObjectLike } from './crypto/jwk.js'
export { decodeCompactJws, signCompactJws, type DecodedJws, type JsonObject } from './crypto/jws.js'
export { computeCodeChallenge, generateCodeVerifier, isValidCodeVerifier } from './crypto/pkce.js'
export { generateJti, generateState, randomBytes } from './crypto/random.js'
export { isJwsSigner, signingAlgorithms, type JwsSigner, type SigningAlgorithm } from './crypto/signer.js'
export {
  ConfigurationError,
  describeValue,
  type ConfigurationErrorFields,
} from './errors/configuration-error.js'
export {
  CertificateChainError,
  CryptoError,
  type CertificateChainFailureReason,
  type CryptoErrorReason,
} from './errors/crypto-error.js'
export { DiscoveryError, type DiscoveryErrorFields } from './errors/discovery-error.js'
export {
  FhirAuthError,
  type FhirAuthErrorCode,
  type FhirAuthErrorOptions,
} from './errors/fhir-auth-error.js'
export { HttpError, type HttpErrorFields, type HttpErrorReason } from './errors/http-error.js'
export {
  parseOAuthErrorBody,
  RegistrationError,
  TokenError,
  type OAuthErrorBody,
  type OAuthErrorFields,
} from './errors/oauth-error.js'
export { basicAuthorization, encodeForm, formUrlEncode } from './http/encoding.js'
export {
  isJsonObject,
  parseJsonBody,
  parseJsonObjectBody,
  tryParseJsonBody,
  type JsonRecord,
} from './http/json.js'
export {
  defaultMaxResponseBytes,
  defaultTimeoutMs,
  safeUrl,
  sendRequest,
  type FetchLike,
  type HttpRequest,
  type HttpResponse,
  type TransportOptions,
} from './http/request.js'
export {
  checkUrl,
  isLoopbackHostname,
  isUsableUrl,
  parseAbsoluteUrl,
  type UrlProblem,
} from './http/url-policy.js'
export {
  consoleLogger,
  defaultLogger,
  silentLogger,
  type LogFields,
  type Logger,
  type LogLevel,
} from './logging/logger.js'
export {
  isSensitiveName,
  looksLikeJwt,
  redacted,
  redactFields,
  redactSecrets,
  redactUrl,
} from './logging/redact.js'
export { epochSeconds, systemClock, type Clock } from './time/clock.js'
