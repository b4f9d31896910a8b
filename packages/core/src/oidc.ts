/**
 * `@fhir-auth/core/oidc`: OpenID Connect ID token validation — the key set of a server, the
 * allowed algorithms, and the checks of OIDC Core §3.1.3.7 with signatures verified by the
 * configured crypto backend. Loaded only by clients that ask for `openid`.
 *
 * @packageDocumentation
 */

export { JsonWebKeySet, type JsonWebKeySetOptions } from './oidc/json-web-key-set.js'
export { publicJwkToSpki } from './oidc/public-jwk-spki.js'
export {
  type IdTokenClaims,
  type IdTokenExpectations,
  idTokenAlgorithms,
  verifyIdToken,
} from './oidc/verify-id-token.js'
