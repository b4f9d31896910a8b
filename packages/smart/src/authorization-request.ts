import {
  ConfigurationError,
  computeCodeChallenge,
  generateCodeVerifier,
  generateState,
  parseAbsoluteUrl,
  requireNonBlankString,
} from '@fhir-auth/core'
import { requireScopes } from './option-checks.js'

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
}

/** What the app needs to start the authorization and, later, to finish it. */
export interface AuthorizationRequest {
  /** GET: the full redirect URL. POST: the bare authorize endpoint to submit `params` to. */
  readonly authUrl: string
  /** The CSRF value; store it and compare it with the callback's `state`. */
  readonly state: string
  /** The PKCE verifier; store it (secretly) and pass it to `exchangeAuthorizationCode`. */
  readonly codeVerifier: string
  /** POST only: the parameters to submit as an `application/x-www-form-urlencoded` form. */
  readonly params?: Readonly<Record<string, string>>
}

/**
 * Builds a SMART authorization request with a fresh `state` (256 bits) and a fresh PKCE
 * verifier on every call; the challenge is always S256 (`plain` is prohibited by SMART 2.2.0).
 *
 * Parameters: `response_type=code`, `client_id`, `redirect_uri`, `launch` (only when given),
 * `scope`, `state`, `aud`, `code_challenge`, `code_challenge_method=S256`.
 * With `get` they are added to the endpoint's query: an existing query is kept, and a
 * parameter of the same name already there is replaced. With `post` the endpoint is returned
 * exactly as given and the parameters come back in `params`.
 *
 * @throws ConfigurationError on `method`, `authorizationEndpoint` (not an absolute URL),
 *   `clientId`, `redirectUri`, `scopes`, `audience` or `launch`.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#request-authorization
 */
export async function buildAuthorizationRequest(
  options: AuthorizationRequestOptions,
): Promise<AuthorizationRequest> {
  const method = options.method ?? 'get'
  if (method !== 'get' && method !== 'post') {
    throw new ConfigurationError({
      invalidAttribute: 'method',
      invalidValue: method,
      validValues: ['get', 'post'],
    })
  }
  const endpoint = requireNonBlankString(options.authorizationEndpoint, 'authorizationEndpoint')
  const url = parseAbsoluteUrl(endpoint)
  if (url === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'authorizationEndpoint',
      message: 'authorizationEndpoint must be an absolute URL',
    })
  }
  const { launch } = options
  if (launch !== undefined && typeof launch !== 'string') {
    throw new ConfigurationError({ invalidAttribute: 'launch', message: 'launch must be a string' })
  }
  const state = generateState()
  const codeVerifier = generateCodeVerifier()
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: requireNonBlankString(options.clientId, 'clientId'),
    redirect_uri: requireNonBlankString(options.redirectUri, 'redirectUri'),
  }
  if (launch) params.launch = launch
  params.scope = requireScopes(options.scopes)
  params.state = state
  params.aud = requireNonBlankString(options.audience, 'audience')
  params.code_challenge = await computeCodeChallenge(codeVerifier)
  params.code_challenge_method = 'S256'
  if (method === 'post')
    return { authUrl: endpoint, state, codeVerifier, params: Object.freeze(params) }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return { authUrl: url.href, state, codeVerifier }
}
