import {
  type AuthorizationRequest,
  ConfigurationError,
  configuredUrlProblem,
  withoutUserInfo,
} from '@fhir-auth/core/essentials'
import {
  addNonce,
  codeRequestParameters,
  createAuthorizationRequest,
  optionalString,
  readOptions,
  requireScopes,
} from '@fhir-auth/core/internal'

export type { AuthorizationRequest } from '@fhir-auth/core/essentials'

/** The scope that asks a data holder for Tiered OAuth (IG STU2 §6). */
export const tieredOAuthScope = 'udap'

/** Options of {@link buildUdapAuthorizationRequest}. */
export interface UdapAuthorizationRequestOptions {
  /**
   * The server's signed `authorization_endpoint` (`UdapMetadata.authorizationEndpoint`), never
   * the unsigned value of the discovery document.
   */
  readonly authorizationEndpoint: string
  /** The `client_id` the server issued at registration. */
  readonly clientId: string
  /** A redirect URI registered in the software statement. */
  readonly redirectUri: string
  /** Joined with single spaces into `scope`; blank entries are dropped. */
  readonly scopes: readonly string[]
  /** `get` (default): a redirect URL; `post`: a form to submit. */
  readonly method?: 'get' | 'post' | undefined
  /**
   * The OpenID Connect `nonce`: send one whenever `openid` is requested (the ID token must carry
   * it back). Sent only when given.
   *
   * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest OIDC Core §3.1.2.1
   */
  readonly nonce?: string | undefined
  /**
   * Tiered OAuth: the base URL of the identity provider the data holder should send the user to
   * (the `iss` of that IdP's ID tokens). Sent as `idp`; `udap` is then added to the scopes when
   * absent, since `idp` means nothing without it.
   *
   * @see https://hl7.org/fhir/us/udap-security/STU2/user.html#client-authorization-request-to-data-holder
   */
  readonly idp?: string | undefined
  /** Accept an `http://` `idp` on a loopback host (development only). */
  readonly allowInsecureLocalhost?: boolean | undefined
}

/**
 * Builds a UDAP authorization request (consumer-facing and interactive B2B apps, Tiered OAuth)
 * with a fresh `state` (256 bits) and a fresh PKCE verifier on every call: IG STU2 makes both
 * mandatory, and the challenge is always S256.
 *
 * Parameters: `response_type=code`, `client_id`, `redirect_uri`, `scope`, `idp` (only when
 * given), `nonce` (only when given), `state`, `code_challenge`, `code_challenge_method=S256`.
 * UDAP defines neither `aud` nor `launch`: neither is sent. With `get` the parameters are added
 * to the endpoint's query (an existing query is kept); with `post` the endpoint is returned as
 * given and the parameters come back in `params`.
 *
 * @example
 * ```ts
 * const metadata = await discoverUdapMetadata({ baseUrl, trustedAnchors, crls, crypto })
 * const { authUrl, state, codeVerifier } = await buildUdapAuthorizationRequest({
 *   authorizationEndpoint: metadata.authorizationEndpoint!, // the signed value
 *   clientId: registration.client_id,
 *   redirectUri: 'https://app.example.org/callback',
 *   scopes: ['openid', 'fhirUser', 'user/*.rs'],
 *   nonce,
 * })
 * // keep state and codeVerifier (and nonce) until the callback, then redirect to authUrl
 * ```
 * @throws ConfigurationError on `method`, `authorizationEndpoint` (not an absolute URL),
 *   `clientId`, `redirectUri`, `scopes`, `idp` (not an HTTPS URL) or `nonce`.
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#obtaining-an-authorization-code
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#obtaining-an-authorization-code
 */
export async function buildUdapAuthorizationRequest(
  input: UdapAuthorizationRequestOptions,
): Promise<AuthorizationRequest> {
  const options = readOptions(input, 'buildUdapAuthorizationRequest', { required: true })
  return createAuthorizationRequest({
    authorizationEndpoint: options.authorizationEndpoint,
    method: options.method,
    params: () => {
      const params = codeRequestParameters(options)
      const idp = checkIdp(options.idp, options.allowInsecureLocalhost === true)
      const scope = requireScopes(options.scopes)
      params.scope = idp === undefined ? scope : withTieredOAuthScope(scope)
      if (idp !== undefined) params.idp = idp
      addNonce(params, options.nonce)
      return params
    },
  })
}

/** `scope` with `udap` added at the end when it is not already one of its tokens. */
function withTieredOAuthScope(scope: string): string {
  return scope.split(' ').includes(tieredOAuthScope) ? scope : `${scope} ${tieredOAuthScope}`
}

/**
 * The IdP's base URL as ADR 0003 takes every URL a caller gives: HTTPS (loopback HTTP under
 * the policy) and no user info — it is sent in the authorization URL, where a password would be
 * disclosed to the data holder and its logs.
 */
function checkIdp(value: unknown, allowInsecureLocalhost: boolean): string | undefined {
  const idp = optionalString(value, 'idp')
  if (idp === undefined) return undefined
  const problem = configuredUrlProblem(idp, allowInsecureLocalhost)
  if (problem === undefined) return idp
  throw new ConfigurationError({
    invalidAttribute: 'idp',
    invalidValue: withoutUserInfo(idp),
    message: `idp must be the identity provider’s base URL: it ${problem}`,
  })
}
