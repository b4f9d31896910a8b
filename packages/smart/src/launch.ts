/**
 * `@fhir-auth/smart/launch`: the app-launch subset of `@fhir-auth/smart` — discovery, the
 * authorization request, code exchange, refresh and the token response check. Everything here is
 * also exported by the main entry; importing this one keeps registration, Backend Services and
 * JWS code out of a browser bundle even with bundlers that split shared code per file.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 * @packageDocumentation
 */

export {
  type AuthorizationCodeExchangeOptions,
  exchangeAuthorizationCode,
} from './authorization-code.js'
export {
  type AuthorizationRequest,
  type AuthorizationRequestOptions,
  buildAuthorizationRequest,
} from './authorization-request.js'
export type { ClientAuthentication } from './client-authentication-types.js'
export {
  type DiscoverSmartOptions,
  discoverSmartConfiguration,
  smartConfigurationUrl,
} from './discovery.js'
export { type DiscoveredEndpointField, requireDiscoveredEndpoint } from './endpoints.js'
export { type RefreshOptions, refreshAccessToken } from './refresh.js'
export { type RevokedTokenType, type RevokeTokenOptions, revokeToken } from './revocation.js'
export {
  type AssociatedEndpoint,
  SmartMetadata,
  type SmartMetadataSource,
} from './smart-metadata.js'
export type { TokenRequestCommon } from './token-request.js'
export { parseTokenResponse, type TokenResponse } from './token-response.js'
