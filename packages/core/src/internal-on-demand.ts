/**
 * `@fhir-auth/core/internal/on-demand`: helpers shared between fhir-auth packages that only code
 * loaded on demand uses — signed JWTs (client assertions, software statements, UDAP
 * authentication tokens: signer, clock, claims) and client registration (endpoint check, metadata,
 * response).
 * Not a public API: it may change in any release.
 *
 * Kept apart from `@fhir-auth/core/internal` for bundle size: a bundler that splits code per
 * dynamic import puts whatever any chunk imports through an entry the up-front code also imports
 * into the up-front chunk. Public SMART apps never load these.
 *
 * @internal
 * @packageDocumentation
 */

export { requireEndpointUrl } from './checks/endpoint-url.js'
export { isPlainObject } from './checks/plain-object.js'
export * from './internal-signing.js'
export {
  type RegistrationResponseRules,
  readRegistrationResponse,
} from './oauth/registration-response.js'
