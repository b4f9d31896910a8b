import { requireNonBlankString } from '../checks/required-string.js'
import { generateCodeVerifier } from '../crypto/pkce.js'
import { generateState } from '../crypto/random.js'
import { sha256Base64Url } from '../crypto/sha256.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import { parseAbsoluteUrl } from '../http/url-policy.js'

/** What an app needs to start an authorization and, later, to finish it. */
export interface AuthorizationRequest {
  /** GET: the full redirect URL. POST: the bare authorize endpoint to submit `params` to. */
  readonly authUrl: string
  /** The CSRF value; store it and compare it with the callback's `state`. */
  readonly state: string
  /** The PKCE verifier; store it (secretly) and send it with the code exchange. */
  readonly codeVerifier: string
  /** POST only: the parameters to submit as an `application/x-www-form-urlencoded` form. */
  readonly params?: Readonly<Record<string, string>>
}

/** What {@link createAuthorizationRequest} needs from a protocol. */
export interface AuthorizationRequestInput {
  /** The authorize endpoint, configured or discovered (and checked by the caller). */
  readonly authorizationEndpoint: unknown
  /** `get` (default): a redirect URL; `post`: a form to submit. */
  readonly method?: unknown
  /**
   * The protocol's own parameters (`response_type`, `client_id`, `scope`, …), in order. Called
   * once `method` and `authorizationEndpoint` have passed, so their errors come first.
   */
  readonly params: () => Readonly<Record<string, string>>
}

const methods = ['get', 'post']

/**
 * Returns the authorization request method, `get` when absent.
 *
 * @throws ConfigurationError on `method` for anything but `get` or `post`.
 * @internal
 */
export function authorizationMethod(value: unknown): 'get' | 'post' {
  const method = value ?? 'get'
  if (methods.includes(method as string)) return method as 'get' | 'post'
  throw new ConfigurationError({
    invalidAttribute: 'method',
    invalidValue: method,
    validValues: methods,
  })
}

/**
 * The OAuth 2.0 authorization request every protocol makes (SMART App Launch, UDAP authorization
 * code): the protocol's parameters, then a fresh `state` (256 bits) and a fresh PKCE pair
 * (`code_challenge`, `code_challenge_method=S256`: `plain` is never sent). GET adds them to the
 * endpoint's query (an existing query is kept, a parameter of the same name replaced); POST
 * returns the endpoint exactly as given and the parameters in `params`.
 *
 * @throws ConfigurationError on `method` (not `get` or `post`), `authorizationEndpoint` (not an
 *   absolute URL), then whatever `params` throws.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.3
 * @internal
 */
export async function createAuthorizationRequest(
  input: AuthorizationRequestInput,
): Promise<AuthorizationRequest> {
  const method = authorizationMethod(input.method)
  const endpoint = requireNonBlankString(input.authorizationEndpoint, 'authorizationEndpoint')
  const url = parseAbsoluteUrl(endpoint)
  if (url === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'authorizationEndpoint',
      message: 'authorizationEndpoint must be an absolute URL',
    })
  }
  const protocolParams = input.params()
  const state = generateState()
  const codeVerifier = generateCodeVerifier()
  const params: Record<string, string> = {
    ...protocolParams,
    state,
    // S256 of a verifier made here: 32 random bytes in base64url are always 43 characters of
    // RFC 7636 §4.1's alphabet, so computeCodeChallenge's check of a caller's verifier (and its
    // message) need not be loaded by every authorization request.
    code_challenge: await sha256Base64Url(codeVerifier),
    code_challenge_method: 'S256',
  }
  if (method === 'post') {
    return { authUrl: endpoint, state, codeVerifier, params: Object.freeze(params) }
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return { authUrl: url.href, state, codeVerifier }
}
