/**
 * `@fhir-auth/core/internal/up-front`: the part of `@fhir-auth/core/essentials` that code loaded
 * before an app does anything needs — what `@fhir-auth/client`'s index re-exports and what its
 * synchronous APIs use (configuration, the error classes, stores, loggers, the clock, `TokenSet`).
 * Not a public API: the same modules as `core/essentials`, so classes and `instanceof` are shared.
 *
 * An entry of its own because a bundler that splits code per dynamic import puts every file an
 * entry re-exports into the chunk of whoever imports the entry (ADR 0012): up-front code that took
 * these from `core/essentials` would load what only lazy code uses (base64url, PKCE, random
 * values, form encoding, `parseOAuthErrorBody`) before the app does anything.
 *
 * @internal
 * @packageDocumentation
 */

export { ClientConfig, type ClientConfigInput } from './config/client-config.js'
export { AuthorizationError } from './errors/authorization-error.js'
export {
  ConfigurationError,
  describeValue,
} from './errors/configuration-error.js'
export { CertificateChainError, CryptoError } from './errors/crypto-error.js'
export { DiscoveryError } from './errors/discovery-error.js'
export { FhirAuthError } from './errors/fhir-auth-error.js'
export { HttpError } from './errors/http-error.js'
export { IdTokenError } from './errors/id-token-error.js'
export { RegistrationError, TokenError } from './errors/oauth-error.js'
export { StoreError } from './errors/store-error.js'
export { isJsonObject } from './http/json-object.js'
export { defaultTimeoutMs } from './http/transport.js'
export { consoleLogger, defaultLogger, silentLogger } from './logging/logger.js'
export { indexedDbStore } from './stores/indexed-db-store.js'
export { memoryStore } from './stores/memory-store.js'
export { webStorageStore } from './stores/web-storage-store.js'
export { systemClock } from './time/clock.js'
export { loadedScopeReader } from './tokens/scope-reader.js'
export { TokenSet } from './tokens/token-set.js'
