import type { ClientJwtRule } from './client-jwt-verification.js'
import type { UdapSandboxUser } from './sandbox-user.js'

/**
 * The rule a token request broke, in the order the token endpoint checks them: the request
 * (`authorization-header` … `client-assertion`), the authentication token's JWS, trust and
 * claims ({@link ClientJwtRule}), the client (`client-id` = form `client_id` ≠ `sub`,
 * `client` unknown or cancelled, `certificate-san` not the registered client URI,
 * `grant-not-registered`), and the grant (`extensions`, `scope`, `code`, `redirect-uri`,
 * `code-verifier`, `refresh-token`).
 */
export type TokenRequestRule =
  | 'authorization-header'
  | 'content-type'
  | 'grant-type'
  | 'udap'
  | 'client-assertion-type'
  | 'client-assertion'
  | ClientJwtRule
  | 'client-id'
  | 'client'
  | 'certificate-san'
  | 'grant-not-registered'
  | 'extensions'
  | 'scope'
  | 'code'
  | 'redirect-uri'
  | 'code-verifier'
  | 'refresh-token'

/**
 * One token request as the server judged it: the UDAP authentication token (AnT) it carried,
 * decoded, and the first rule it broke. Integration tests assert the AnT rules on the server
 * side with it (`alg`, `x5c`, `iss = sub = client_id`, `aud`, `exp − iat ≤ 300`, `jti`, no
 * `extensions` for authorization_code and refresh_token, no `Authorization` header, `udap=1`).
 */
export interface AuthenticationTokenRecord {
  readonly receivedAt: Date
  /** The form's `grant_type` (`undefined` when absent or the body was no form). */
  readonly grantType: string | undefined
  /** Whether an `Authorization` header arrived (UDAP forbids it). */
  readonly authorizationHeader: boolean
  /** The form as received, `client_assertion` included (empty when the body was no form). */
  readonly form: Readonly<Record<string, string>>
  /** The AnT's protected header, decoded (also when its signature did not verify). */
  readonly header: Readonly<Record<string, unknown>> | undefined
  /** The AnT's claims, decoded (also when its signature did not verify). */
  readonly claims: Readonly<Record<string, unknown>> | undefined
  /** The signature verified with `x5c[0]`'s key under an advertised `alg`. */
  readonly signatureVerified: boolean
  /** `x5c` chained to a trusted anchor with current CRLs (checked only after the signature). */
  readonly chainValidated: boolean
  /** The SAN URIs of `x5c[0]` when the signature verified. */
  readonly certificateSanUris: readonly string[]
  readonly accepted: boolean
  /** The authenticated `client_id`, once the client was authenticated. */
  readonly clientId?: string
  /** The first rule the request broke, when refused. */
  readonly failedRule?: TokenRequestRule
  readonly error?: string
  readonly errorDescription?: string
}

/** How an authorization request ended at this sandbox. */
export type AuthorizationOutcome =
  /** A code was issued and the user agent redirected to the client. */
  | 'code'
  /** An error: redirected to the client (`redirected`) or shown as an error page. */
  | 'error'
  /** Tiered OAuth: the user agent was sent to the IdP (see `tieredLogins` for the end). */
  | 'identity-provider'

/** One request to the authorization endpoint, as received and as answered. */
export interface AuthorizationRequestRecord {
  readonly receivedAt: Date
  readonly method: 'GET' | 'POST'
  /** Every parameter received (query for GET, form for POST). */
  readonly parameters: Readonly<Record<string, string>>
  /**
   * Parameters the server does not recognise and ignores (RFC 6749 §3.1), e.g. `aud` or
   * `launch`, which UDAP does not define. Recognised: `response_type, client_id,
   * redirect_uri, scope, state, code_challenge, code_challenge_method, nonce, idp`.
   */
  readonly unrecognizedParameters: readonly string[]
  readonly clientId?: string
  readonly outcome: AuthorizationOutcome
  /** Whether the answer was a redirect to the client's redirect URI. */
  readonly redirected: boolean
  readonly error?: string
  readonly errorDescription?: string
  /** The `idp` of a Tiered OAuth request. */
  readonly identityProvider?: string
}

/** The identity an IdP asserted in a validated ID token (Tiered OAuth). */
export interface TieredIdentity {
  /** `iss` of the ID token: the IdP's base URL (= the `idp` parameter). */
  readonly issuer: string
  /** `sub` of the ID token. */
  readonly subject: string
  /** Every verified claim of the ID token. */
  readonly claims: Readonly<Record<string, unknown>>
}

/**
 * The stage at which a Tiered OAuth login failed: the IdP's metadata or trust (`idp-metadata`),
 * registering with it, its authorization response (`state` wrong or missing, or an `error`),
 * the code exchange, the ID token, or mapping the identity to a local user.
 */
export type TieredLoginStage =
  | 'idp-metadata'
  | 'idp-registration'
  | 'idp-state'
  | 'idp-error'
  | 'idp-token'
  | 'id-token'
  | 'user-mapping'

/** One Tiered OAuth login at this sandbox acting as data holder. */
export interface TieredLoginRecord {
  readonly startedAt: Date
  /** The `idp` parameter of the app's request. */
  readonly identityProvider: string
  /** The app's `client_id` at this data holder. */
  readonly clientId: string
  readonly outcome: 'code' | 'error'
  /** The error sent to the app (`invalid_idp`, `access_denied`, `server_error`). */
  readonly error?: string
  readonly errorDescription?: string
  readonly failedStage?: TieredLoginStage
  /** This data holder's `client_id` at the IdP, once registered. */
  readonly identityProviderClientId?: string
  /** The `nonce` this data holder sent to the IdP. */
  readonly nonce?: string
  /** The verified identity, once the ID token validated. */
  readonly identity?: TieredIdentity
  /** The local user the identity was mapped to. */
  readonly localUser?: UdapSandboxUser
}
