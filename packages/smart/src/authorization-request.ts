import type { AuthorizationRequest } from '@fhir-auth/core/essentials'
import {
  addNonce,
  codeRequestParameters,
  createAuthorizationRequest,
  optionalString,
  readOptions,
  requireNonBlankString,
  requireScopes,
} from '@fhir-auth/core/internal'

export type { AuthorizationRequest } from '@fhir-auth/core/essentials'

/** Options of {@link buildAuthorizationRequest}. */
export interface AuthorizationRequestOptions {
  /** The authorize endpoint, configured or discovered (check a discovered one with `requireDiscoveredEndpoint`). */
  readonly authorizationEndpoint: string
  readonly clientId: string
  readonly redirectUri: string
  /** Joined with single spaces into `scope`; blank entries are dropped. */
  readonly scopes: readonly string[]
  /** The `aud` parameter: the FHIR base URL of the resource server (the config's `issuer`). */
  readonly audience: string
  /** The EHR launch token; sent as `launch` only when given. */
  readonly launch?: string | undefined
  /** `get` (default): a redirect URL; `post`: a form to submit (the `authorize-post` capability). */
  readonly method?: 'get' | 'post' | undefined
  /**
   * The OpenID Connect `nonce` (send one whenever `openid` is requested; the ID token must
   * carry it back). Sent only when given.
   *
   * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest OIDC Core §3.1.2.1
   */
  readonly nonce?: string | undefined
}

/**
 * Builds a SMART authorization request with a fresh `state` (256 bits) and a fresh PKCE
 * verifier on every call; the challenge is always S256 (`plain` is prohibited by SMART 2.2.0).
 *
 * Parameters: `response_type=code`, `client_id`, `redirect_uri`, `launch` (only when given),
 * `scope`, `aud`, `nonce` (only when given), `state`, `code_challenge`,
 * `code_challenge_method=S256`.
 * With `get` they are added to the endpoint's query: an existing query is kept, and a
 * parameter of the same name already there is replaced. With `post` the endpoint is returned
 * exactly as given and the parameters come back in `params`.
 *
 * @example
 * ```ts
 * const { authUrl, state, codeVerifier } = await buildAuthorizationRequest({
 *   authorizationEndpoint: metadata.authorizationEndpoint,
 *   clientId: 'my-app',
 *   redirectUri: 'https://app.example.org/callback',
 *   scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
 *   audience: 'https://ehr.example.org/fhir',
 * })
 * // keep state and codeVerifier (server side or in sessionStorage), then redirect to authUrl
 * ```
 * @throws ConfigurationError on `method`, `authorizationEndpoint` (not an absolute URL),
 *   `launch`, `clientId`, `redirectUri`, `scopes` or `audience`.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#request-authorization
 */
export async function buildAuthorizationRequest(
  input: AuthorizationRequestOptions,
): Promise<AuthorizationRequest> {
  const options = readOptions(input, 'buildAuthorizationRequest', { required: true })
  return createAuthorizationRequest({
    authorizationEndpoint: options.authorizationEndpoint,
    method: options.method,
    params: () => {
      const launch = optionalString(options.launch, 'launch')
      const params = codeRequestParameters(options)
      if (launch) params.launch = launch
      params.scope = requireScopes(options.scopes)
      params.aud = requireNonBlankString(options.audience, 'audience')
      addNonce(params, options.nonce)
      return params
    },
  })
}
