/**
 * `@fhir-auth/smart`: stateless SMART App Launch 2.2.0 client functions — discovery,
 * authorization requests (GET and `authorize-post`), code exchange, refresh, Backend Services,
 * RFC 7591 registration and token response checks — plus the parsers that do no I/O. Each
 * function takes one options object; the `Client` in `@fhir-auth/client` is a stateful facade
 * over them.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/
 * @packageDocumentation
 */

// SMART scopes as data; the parser lives in core so that `TokenSet.grantedScopes` can use it.
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
export {
  type AuthorizationCodeExchangeOptions,
  exchangeAuthorizationCode,
} from './authorization-code.js'
export {
  type AuthorizationRequest,
  type AuthorizationRequestOptions,
  buildAuthorizationRequest,
} from './authorization-request.js'
export {
  type BackendServicesTokenOptions,
  requestBackendServicesToken,
  resolveBackendScopes,
} from './backend-services.js'
export {
  type ClientAssertionOptions,
  createClientAssertion,
  jwtBearerAssertionType,
} from './client-assertion.js'
export type { ClientAuthentication } from './client-authentication-types.js'
export {
  type DiscoverSmartOptions,
  discoverSmartConfiguration,
  smartConfigurationUrl,
} from './discovery.js'
export { type DiscoveredEndpointField, requireDiscoveredEndpoint } from './endpoints.js'
export { type RefreshOptions, refreshAccessToken } from './refresh.js'
export {
  parseRegistrationResponse,
  type RegisterSmartClientOptions,
  type RegistrationResponse,
  registerSmartClient,
} from './registration.js'
export { type RevokedTokenType, type RevokeTokenOptions, revokeToken } from './revocation.js'
export {
  type AssociatedEndpoint,
  SmartMetadata,
  type SmartMetadataSource,
} from './smart-metadata.js'
export type { TokenRequestCommon } from './token-request.js'
export { parseTokenResponse, type TokenResponse } from './token-response.js'
export { isTokenResponseValid, type TokenResponseCheckOptions } from './token-response-check.js'
export { validateSmartMetadata } from './validate-smart-metadata.js'
