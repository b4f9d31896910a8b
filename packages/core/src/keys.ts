/**
 * `@fhir-auth/core/keys`: `publicJwks`, the JWKS to publish for a client's private keys. Also in
 * `@fhir-auth/core` and re-exported by `@fhir-auth/client`. An entry of its own so that the PEM
 * and DER readers it needs load only with it (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * @packageDocumentation
 */

export {
  type PublicJwk,
  type PublicJwks,
  type PublicJwksEntry,
  type PublicJwksKeyInput,
  publicJwks,
} from './keys/public-jwks.js'
