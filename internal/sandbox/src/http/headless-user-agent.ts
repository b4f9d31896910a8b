import { ConfigurationError, HttpError } from '@fhir-auth/core'
import { parseJsonObject } from './body-format.js'
import { CookieJar } from './cookie-jar.js'

/**
 * An authorization request as the library produces it: a GET URL (`authUrl`), or an
 * authorize-POST endpoint with its form parameters (`authUrl` + `params`).
 */
export type AuthorizeRequest =
  | { readonly url: string }
  | { readonly endpoint: string; readonly params: Readonly<Record<string, string>> }

/** How the simulated user answers the consent step. */
export type ConsentDecision = 'approve' | 'deny'

/** Options of `sandbox.authorize`. */
export interface AuthorizeOptions {
  /** `deny` makes the user refuse, so the client gets `error=access_denied`. Default `approve`. */
  readonly decision?: ConsentDecision
}

/**
 * Where an authorization request ended.
 *
 * Normally the server redirects to the client's `redirect_uri` (success or OAuth error):
 * `redirectUrl` is that URL and `code`/`state`/`issuer` or `error`/`errorDescription`/`state`
 * are read from its query. When the server must not redirect (unknown `client_id`,
 * unregistered `redirect_uri`, RFC 6749 §4.1.2.1), `redirectUrl` is `undefined` and
 * `error`/`errorDescription` come from the error page.
 */
export interface AuthorizeResult {
  readonly redirectUrl: URL | undefined
  /** HTTP status of the last response: the redirect's 3xx, or the error page's status. */
  readonly status: number
  readonly code?: string
  readonly state?: string
  /** The `iss` authorization response parameter (RFC 9207). */
  readonly issuer?: string
  readonly error?: string
  readonly errorDescription?: string
}

/**
 * Header the user agent sends on every hop to carry {@link AuthorizeOptions.decision} to the
 * sandbox's interaction route. Browsers never send it, so they always approve.
 */
export const consentDecisionHeader = 'x-sandbox-consent'

/** Hops allowed before giving up: authorize, login, resume, consent, resume, and spare. */
const maximumHops = 10

/** Where a user agent may go, beyond the sandbox it starts at. */
export interface UserAgentScope {
  /** Where the sandbox listens; the first request must be on it or on an alias. */
  readonly origin: string
  /** Origins that stand for {@link origin} (a `publicOrigin`): requests go to `origin`. */
  readonly aliases?: readonly string[]
  /**
   * Whether a redirect to `url` (not the client's) may be followed. Default: any URL (the SMART
   * provider redirects only within itself). A redirect that may not be followed ends the run
   * like the client's redirect.
   */
  readonly mayFollow?: (url: URL) => boolean
  /** The client's redirect URI when the request names none (e.g. its only registered one). */
  readonly registeredRedirectUri?: (clientId: string | undefined) => string | undefined
}

/**
 * Plays the user's browser through an authorization on a sandbox: sends the request, follows
 * the redirects (within the sandbox, and across sandboxes where `scope.mayFollow` allows) with
 * a cookie jar of its own, and stops at the redirect to the client's `redirect_uri` (which it
 * never contacts).
 *
 * @param scope the sandbox's origin, or a {@link UserAgentScope}.
 * @throws {ConfigurationError} `request` is not a GET URL or an endpoint with params, or it
 *   targets another origin than the sandbox's.
 * @throws {HttpError} reason `redirect`: more than ten hops without reaching the client.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#obtain-authorization-code
 */
export async function runAuthorization(
  scope: string | UserAgentScope,
  request: AuthorizeRequest,
  options: AuthorizeOptions | undefined = {},
): Promise<AuthorizeResult> {
  const agent: UserAgentScope = typeof scope === 'string' ? { origin: scope } : scope
  const sandboxOrigins = [agent.origin, ...(agent.aliases ?? [])]
  const first = firstHop(sandboxOrigins, request)
  const redirectUri = first.redirectUri ?? agent.registeredRedirectUri?.(first.clientId)
  const jar = new CookieJar()
  let url = first.url
  let method = first.method
  let body = first.body
  for (let hop = 0; hop < maximumHops; hop += 1) {
    const headers: Record<string, string> = {
      [consentDecisionHeader]: options?.decision ?? 'approve',
    }
    const cookie = jar.headerFor(url)
    if (cookie !== undefined) headers.cookie = cookie
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
    const response = await fetch(listeningUrl(url, agent), {
      method,
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
    })
    jar.store(response.headers.getSetCookie(), url)
    const location = response.headers.get('location')
    if (response.status < 300 || response.status >= 400 || location === null) {
      return errorPageResult(response)
    }
    await response.body?.cancel()
    const target = new URL(location, url)
    if (
      isClientRedirect(target, sandboxOrigins, redirectUri) ||
      !(agent.mayFollow?.(target) ?? true)
    ) {
      return redirectResult(target, response.status)
    }
    url = target
    method = 'GET'
    body = undefined
  }
  throw new HttpError({
    reason: 'redirect',
    url: `${agent.origin}/`,
    message: `the authorization did not reach the client's redirect_uri within ${maximumHops} redirects`,
  })
}

/** `url` with an alias origin replaced by the origin the sandbox listens on. */
function listeningUrl(url: URL, agent: UserAgentScope): URL {
  if (!(agent.aliases ?? []).includes(url.origin)) return url
  return new URL(`${url.pathname}${url.search}`, agent.origin)
}

interface FirstHop {
  readonly url: URL
  readonly method: 'GET' | 'POST'
  readonly body: string | undefined
  readonly redirectUri: string | undefined
  readonly clientId: string | undefined
}

function firstHop(sandboxOrigins: readonly string[], request: AuthorizeRequest): FirstHop {
  if (typeof request !== 'object' || request === null) {
    throw new ConfigurationError({
      invalidAttribute: 'request',
      invalidValue: request,
      message: 'authorize needs { url } (GET) or { endpoint, params } (authorize-POST)',
    })
  }
  if ('url' in request && typeof request.url === 'string') {
    const url = sandboxUrl(sandboxOrigins, request.url, 'url')
    return {
      url,
      method: 'GET',
      body: undefined,
      redirectUri: url.searchParams.get('redirect_uri') ?? undefined,
      clientId: url.searchParams.get('client_id') ?? undefined,
    }
  }
  if ('endpoint' in request && typeof request.endpoint === 'string') {
    const params = request.params
    if (typeof params !== 'object' || params === null) {
      throw new ConfigurationError({
        invalidAttribute: 'params',
        invalidValue: params,
        message: 'an authorize-POST request needs params: the form parameters',
      })
    }
    return {
      url: sandboxUrl(sandboxOrigins, request.endpoint, 'endpoint'),
      method: 'POST',
      body: new URLSearchParams(params).toString(),
      redirectUri: params.redirect_uri,
      clientId: params.client_id,
    }
  }
  throw new ConfigurationError({
    invalidAttribute: 'request',
    invalidValue: 'an object without a string url or endpoint',
    message: 'authorize needs { url } (GET) or { endpoint, params } (authorize-POST)',
  })
}

function sandboxUrl(sandboxOrigins: readonly string[], value: string, attribute: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch (cause) {
    throw new ConfigurationError(
      {
        invalidAttribute: attribute,
        invalidValue: value,
        message: `${attribute} is not an absolute URL`,
      },
      { cause },
    )
  }
  if (!sandboxOrigins.includes(url.origin)) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: url.origin,
      message: `${attribute} must be on the sandbox origin ${sandboxOrigins.join(' or ')}, not ${url.origin}`,
    })
  }
  return url
}

/**
 * The redirect that ends the authorization: to the client's `redirect_uri` (same origin and
 * path), or — when it is not known — anywhere off the sandbox origins.
 */
function isClientRedirect(
  target: URL,
  sandboxOrigins: readonly string[],
  redirectUri: string | undefined,
): boolean {
  if (redirectUri !== undefined && URL.canParse(redirectUri)) {
    const expected = new URL(redirectUri)
    return target.origin === expected.origin && target.pathname === expected.pathname
  }
  return !sandboxOrigins.includes(target.origin)
}

function redirectResult(target: URL, status: number): AuthorizeResult {
  const query = target.searchParams
  return {
    redirectUrl: target,
    status,
    ...optional('code', query.get('code')),
    ...optional('state', query.get('state')),
    ...optional('issuer', query.get('iss')),
    ...optional('error', query.get('error')),
    ...optional('errorDescription', query.get('error_description')),
  }
}

async function errorPageResult(response: Response): Promise<AuthorizeResult> {
  const text = await response.text()
  const page = parseJsonObject(text)
  const error = typeof page?.error === 'string' ? page.error : undefined
  const description =
    typeof page?.error_description === 'string' ? page.error_description : undefined
  return {
    redirectUrl: undefined,
    status: response.status,
    ...optional('error', error ?? `http_${response.status}`),
    ...optional('errorDescription', description ?? null),
  }
}

function optional<K extends string>(
  key: K,
  value: string | null | undefined,
): { [P in K]?: string } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: string }
}
