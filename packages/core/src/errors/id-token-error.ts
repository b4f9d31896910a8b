import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/**
 * Which rule an ID token broke (OpenID Connect Core §3.1.3.7):
 * `malformed` (not a JWS of JSON objects, or a `crit` header), `alg` (`none`, HMAC, or not an
 * allowed algorithm for this server; or a key of another type), `signature`, `iss`, `aud`,
 * `azp`, `exp`, `iat`, `nbf` (not valid yet beyond the leeway), `nonce`, `jwks` (no key for
 * the token's `kid`, even after a refetch, or the key set could not be fetched), `sub` (a refreshed ID token for another user, §12.2),
 * `auth_time` (older than the `maxAgeSeconds` asked for).
 */
export type IdTokenFailureReason =
  | 'malformed'
  | 'alg'
  | 'signature'
  | 'iss'
  | 'aud'
  | 'azp'
  | 'exp'
  | 'iat'
  | 'nbf'
  | 'nonce'
  | 'jwks'
  | 'sub'
  | 'auth_time'

/**
 * An ID token failed validation; `reason` says which rule. The token itself is never part of
 * the message or the cause.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation OIDC Core §3.1.3.7
 */
export class IdTokenError extends FhirAuthError {
  static override readonly code = 'ERR_ID_TOKEN' as const
  readonly code = IdTokenError.code
  override readonly name = 'IdTokenError'
  readonly reason: IdTokenFailureReason

  constructor(reason: IdTokenFailureReason, message: string, options?: FhirAuthErrorOptions) {
    super(message, options)
    this.reason = reason
  }
}
