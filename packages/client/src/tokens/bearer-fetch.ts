import { ConfigurationError, type FetchLike } from '@fhir-auth/core'

/** What `session.fetch` and `backendTokens().fetch` accept: `fetch`'s own arguments. */
export type BearerFetchInput = string | URL | Request

/** How a Bearer-authorized fetch gets and renews its token. */
export interface BearerFetchOptions {
  /** The FHIR base URL; the token goes only to this origin, under this path. */
  readonly baseUrl: string | undefined
  /** The client's `fetch` option, else the global one at call time. */
  readonly fetch: FetchLike | undefined
  /** The access token to send (refreshed or re-requested first when it is about to expire). */
  readonly accessToken: () => Promise<string>
  /**
   * Called once when the server answers 401 to `failedToken`; resolves `true` when a new token
   * is ready and the request should be sent again, `false` to hand the 401 to the caller.
   */
  readonly renew: (failedToken: string) => Promise<boolean>
}

const maxRedirects = 5

/**
 * A `fetch` that adds `Authorization: Bearer <token>` to requests under the FHIR base URL and
 * nowhere else: a relative URL resolves against `baseUrl`; any URL on another origin or outside
 * the base path (after `..` is resolved) is refused before anything is sent, and a redirect is
 * followed only while it stays under the base URL (otherwise the 3xx response is returned). On a
 * 401 the token is renewed once and the request sent once more when its body can be sent again
 * (none, a string, bytes, `URLSearchParams`, a `Blob`, or a `Request`, whose body is read first).
 * The response comes back as it is: no size cap, no timeout but the caller's `signal`.
 *
 * @throws ConfigurationError on `url` for a URL the token must not go to.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1 RFC 6750 §2.1 (Bearer header)
 * @see https://hl7.org/fhir/smart-app-launch/app-launch.html#step-6-app-accesses-clinical-data SMART: access data
 */
export function bearerFetch(
  options: BearerFetchOptions,
): (input: BearerFetchInput, init?: RequestInit) => Promise<Response> {
  if (options.baseUrl === undefined) {
    return async () => {
      throw new ConfigurationError({
        invalidAttribute: 'baseUrl',
        message:
          'fetch needs the FHIR baseUrl in the configuration: the token is sent only under it',
      })
    }
  }
  const base = new URL(options.baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  const isUnderBase = (url: URL) =>
    url.origin === base.origin &&
    (url.pathname === basePath ||
      url.pathname === `${basePath}/` ||
      url.pathname.startsWith(`${basePath}/`))
  const resolve = (raw: string): URL => {
    let url: URL
    try {
      // "Patient/1" and "./Patient/1" extend the base path; "/other" and "https://…" do not.
      url = new URL(raw, `${base.origin}${basePath}/`)
    } catch {
      throw refused('is not a URL')
    }
    if (url.username !== '' || url.password !== '') throw refused('carries user info')
    if (!isUnderBase(url)) throw refused(`is outside ${base.origin}${basePath}`)
    return url
  }

  const send = async (url: URL, init: RequestInit, token: string): Promise<Response> => {
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${token}`)
    const fetchFunction = options.fetch ?? ((u: string, i: RequestInit) => fetch(u, i))
    let current = url
    for (let hop = 0; ; hop++) {
      const response = await fetchFunction(current.href, { ...init, headers, redirect: 'manual' })
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || location === null) return response
      const next = new URL(location, current)
      // The token follows a redirect only under the base URL; elsewhere the caller gets the 3xx.
      if (
        !isUnderBase(next) ||
        hop === maxRedirects ||
        !sameRequestAfterRedirect(response.status, init)
      )
        return response
      await response.body?.cancel()
      current = next
    }
  }

  return async (input, init) => {
    const request = await readInput(input, init)
    const url = resolve(request.url)
    const token = await options.accessToken()
    const response = await send(url, request.init, token)
    if (response.status !== 401 || !request.replayable) return response
    if (!(await options.renew(token))) return response
    await response.body?.cancel()
    return send(url, request.init, await options.accessToken())
  }
}

interface ReadInput {
  readonly url: string
  readonly init: RequestInit
  readonly replayable: boolean
}

async function readInput(
  input: BearerFetchInput,
  init: RequestInit | undefined,
): Promise<ReadInput> {
  if (typeof input === 'string' || input instanceof URL) {
    return { url: String(input), init: { ...init }, replayable: isReplayableBody(init?.body) }
  }
  if (typeof Request !== 'undefined' && input instanceof Request) {
    const body = input.body === null ? undefined : await input.arrayBuffer()
    const fromRequest: RequestInit = {
      method: input.method,
      headers: input.headers,
      ...(body === undefined ? {} : { body }),
      signal: input.signal,
    }
    const merged = { ...fromRequest, ...init }
    return { url: input.url, init: merged, replayable: isReplayableBody(merged.body) }
  }
  throw refused('must be a string, a URL or a Request')
}

/** A body `fetch` can send twice: none, text, bytes, form parameters or a Blob. */
function isReplayableBody(body: RequestInit['body']): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof URLSearchParams ||
    (typeof Blob !== 'undefined' && body instanceof Blob)
  )
}

/** 307/308 keep the method and body; a 301/302/303 after a GET is still a GET. */
function sameRequestAfterRedirect(status: number, init: RequestInit): boolean {
  const method = (init.method ?? 'GET').toUpperCase()
  return status === 307 || status === 308 || method === 'GET' || method === 'HEAD'
}

function refused(why: string): ConfigurationError {
  return new ConfigurationError({
    invalidAttribute: 'url',
    message: `the request URL ${why}: the access token is sent only to URLs under the FHIR baseUrl`,
  })
}
