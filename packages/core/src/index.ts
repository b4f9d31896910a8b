/**
 * `@fhir-auth/core`: what every fhir-auth package shares — configuration, typed errors, the
 * HTTP transport policy, logging and redaction, the crypto backend interfaces, base64url, PKCE,
 * `state`/`jti` generation, the clock, and the OAuth types every protocol shares (token and
 * registration responses, authorization requests). JWS assembly and signing-algorithm selection
 * are in `@fhir-auth/core/jws`; what a crypto backend needs in `@fhir-auth/core/backend`;
 * helpers shared between fhir-auth packages (not public API) in `@fhir-auth/core/internal`.
 *
 * @packageDocumentation
 */

// Everything but the request path is in the essentials entry, which code loaded up front
// imports instead of this one (ADR 0012).
export * from './essentials.js'
export { parseJsonBody, parseJsonObjectBody, tryParseJsonBody } from './http/json.js'
export { sendRequest } from './http/request.js'
export * from './keys.js'
export * from './scopes.js'
