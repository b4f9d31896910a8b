import { type RequestCookies, readCookie, requestCookies } from './cookies.js'
import type { WebAppSettings } from './options.js'

/** What the routes read from one request: its URL, and its two cookies under this request's names. */
export interface RequestContext {
  readonly url: URL
  readonly cookies: RequestCookies
  /** The session cookie's value (`undefined` when absent, repeated or malformed). */
  readonly sessionId: string | undefined
  /** The launch cookie's value (`undefined` when absent, repeated or malformed). */
  readonly launchCookie: string | undefined
}

/** A session id as a `SessionStore` makes it (256 bits, base64url); anything else is no session. */
const sessionIdPattern = /^[A-Za-z0-9_-]{22,128}$/

/** The {@link RequestContext} of a request whose URL has been parsed. */
export function requestContext(
  settings: WebAppSettings,
  request: Request,
  url: URL,
): RequestContext {
  const cookies = requestCookies(settings.cookie, url)
  const header = request.headers.get('cookie')
  const sessionId = readCookie(header, cookies.sessionName)
  return {
    url,
    cookies,
    sessionId: sessionId !== undefined && sessionIdPattern.test(sessionId) ? sessionId : undefined,
    launchCookie: readCookie(header, cookies.launchName),
  }
}

/**
 * The one value of `name` in the query: `undefined` when absent or empty, `null` when repeated
 * (a parameter sent twice is refused, never guessed at).
 */
export function singleParameter(query: URLSearchParams, name: string): string | undefined | null {
  const values = query.getAll(name)
  if (values.length > 1) return null
  const [value] = values
  return value === '' ? undefined : value
}
