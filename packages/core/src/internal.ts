/**
 * `@fhir-auth/core/internal`: helpers shared between fhir-auth packages, not a public API (it may
 * change in any release): the argument checks every package applies to what JavaScript callers
 * pass, the OAuth request plumbing the protocols share (authorization requests, token and
 * registration exchanges, discovery documents). X.509, DER, PEM and the certificate path policy
 * are in the public `@fhir-auth/core/backend`.
 *
 * Only what the request path every app loads shares belongs here. A bundler that splits code per
 * dynamic import puts everything any chunk imports through this entry into the chunk every app
 * loads first, so helpers that only code loaded on demand needs (signed JWTs, registration, UDAP)
 * are in `@fhir-auth/core/internal/on-demand`.
 *
 * @internal
 * @packageDocumentation
 */

export { requireScopes, usableScopes } from './checks/request-scopes.js'
export { requireNonBlankString } from './checks/required-string.js'
export { requireMaxResponseBytes } from './checks/response-size.js'
export { sha256Base64Url } from './crypto/sha256.js'
export { raceCallerSignal } from './http/discovery-race.js'
export { tryParseJsonBody } from './http/json.js'
export {
  describeMemberNames,
  type FlowErrorClass,
  isSuccessStatus,
  oauthErrorFromResponse,
  redactRequestSecrets,
  sendFlowRequest,
  successJsonObject,
} from './http/oauth-exchange.js'
export { sanitizeCause } from './http/sanitized-cause.js'
export { networkCause } from './http/transport-failure.js'
export { transportOf } from './http/transport-of.js'
export * from './internal-checks.js'
export {
  addNonce,
  authorizationCodeGrant,
  type CodeExchangeParts,
  type CodeRequestParts,
  codeRequestParameters,
} from './oauth/authorization-code-grant.js'
export {
  type AuthorizationRequestInput,
  authorizationMethod,
  createAuthorizationRequest,
} from './oauth/authorization-request.js'
export {
  type DiscoveryDocumentRequest,
  fetchDiscoveryDocument,
} from './oauth/discovery-document.js'
export { type RefreshParts, refreshTokenGrant } from './oauth/refresh-token-grant.js'
export { heldSecretsOf, keepRefreshToken, readTokenResponse } from './oauth/token-response.js'
export { isHeaderSafe } from './oauth/token-response-header-values.js'
export { storeKey } from './stores/key-value-store.js'
export { checkStoreKey, checkStoreWrite } from './stores/store-arguments.js'
export { timeLimited } from './time/time-limited.js'
export { expiresInSeconds } from './tokens/expires-in.js'
export { requireWithinGrant, warnIfNarrowed } from './tokens/scope-grant.js'
export { loadedScopeReader, type ScopeReader } from './tokens/scope-reader.js'
