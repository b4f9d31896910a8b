import {
  ConfigurationError,
  type FetchLike,
  HttpError,
  safeUrl,
  TokenError,
} from '@fhir-auth/core/essentials'
import {
  abortedByCaller,
  isHeaderSafe,
  networkCause,
  optionalSignal,
  raceSignal,
  readOptions,
  sanitizeCause,
} from '@fhir-auth/core/internal'

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
  /**
   * Called when the server answers 401 to a request whose body cannot be sent again: the refused
   * token is forgotten (without a request), so the caller's next request gets a new one.
   */
  readonly forget?: ((failedToken: string) => Promise<void>) | undefined
}

const maxRedirects = 5

/** Why a URL is refused, ending every message about one. */
const onlyUnderBase = 'the access token is sent only under the FHIR baseUrl'

/**
 * A `fetch` that adds `Authorization: Bearer <token>` to requests under the FHIR base URL and
 * nowhere else: a relative URL resolves against `baseUrl`; any URL on another origin or outside
 * the base path (after `..` is resolved) is refused before anything is sent, and a redirect is
 * followed only while it stays under the base URL (otherwise the 3xx response is returned). On a
 * 401 the token is renewed once and the request sent once more when its body can be sent again
 * (none, a string, bytes, `URLSearchParams`, a `Blob`, or a `Request`, whose body is read first).
 * The response comes back as it is: no size cap, no timeout but the caller's `signal`, which
 * also ends the wait for a token (a signal already aborted sends nothing).
 *
 * @throws ConfigurationError on `url` for a URL the token must not go to, and on `init`,
 *   `headers` or `signal` when they are not what `fetch` takes; HttpError (`network`,
 *   `aborted`) when the request cannot be sent, naming only the failure's kind.
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
        message: `fetch needs baseUrl in the configuration: ${onlyUnderBase}`,
      })
    }
  }
  const base = new URL(options.baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  // The base path itself, with or without a trailing slash, or anything below it.
  const isUnderBase = (url: URL) =>
    url.origin === base.origin && `${url.pathname}/`.startsWith(`${basePath}/`)
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

  const fetchFunction = options.fetch ?? ((u: string, i: RequestInit) => fetch(u, i))
  /** One request; a rejection or a non-Response is an HttpError naming only the error's kind. */
  const fetchOnce = async (url: URL, init: RequestInit): Promise<Response> => {
    let response: unknown
    const signal = init.signal ?? undefined
    let abortedError: HttpError | undefined
    const aborted = () => {
      abortedError = transportFailure(init, url, 'aborted', 'was aborted by the caller')
      return abortedError
    }
    try {
      // Raced with the signal too: a custom fetch that ignores it must not hold the caller.
      response = await raceSignal(
        () => Promise.resolve(fetchFunction(url.href, init)),
        signal,
        aborted,
      )
    } catch (error) {
      if (error === abortedError) throw error
      throw signal?.aborted
        ? aborted()
        : transportFailure(init, url, 'network', `failed: ${networkCause(error)}`, error)
    }
    if (!isResponseLike(response)) {
      throw transportFailure(init, url, 'network', 'failed: fetch did not return a Response')
    }
    return response
  }

  const send = async (request: ReadInput, url: URL, token: string): Promise<Response> => {
    const headers = headersWith(request.init.headers, token)
    const init: RequestInit = { ...request.init, headers, redirect: 'manual' }
    let current = url
    for (let hop = 0; ; hop++) {
      const response = await fetchOnce(current, init)
      const location = locationOf(response)
      if (response.status < 300 || response.status >= 400 || location === undefined) return response
      const next = URL.canParse(location, current) ? new URL(location, current) : undefined
      // The token follows a redirect only under the base URL; elsewhere the caller gets the 3xx.
      if (
        next === undefined ||
        !isUnderBase(next) ||
        hop === maxRedirects ||
        !sameRequestAfterRedirect(response.status, init) ||
        !request.replayable
      )
        return response
      await discard(response)
      current = next
    }
  }

  return async (input, init) => {
    const request = await readInput(input, init)
    const url = resolve(request.url)
    const signal = request.init.signal ?? undefined
    // docs/guides/errors-and-logging.md#cancellation: a signal already aborted sends nothing, not even a refresh.
    const untilAborted = <T>(work: () => Promise<T>) =>
      raceSignal(work, signal, () =>
        transportFailure(request.init, url, 'aborted', 'was aborted by the caller'),
      )
    const token = await untilAborted(() => options.accessToken())
    const response = await send(request, url, token)
    if (response.status !== 401) return response
    if (!request.replayable) {
      const { forget } = options
      if (forget !== undefined) await untilAborted(() => forget(token))
      return response
    }
    if (!(await untilAborted(() => options.renew(token)))) return response
    await discard(response)
    return send(request, url, await untilAborted(() => options.accessToken()))
  }
}

/** What the rest reads of a response: a numeric status and headers; a custom fetch may return anything. */
function isResponseLike(value: unknown): value is Response {
  try {
    const candidate = value as { status?: unknown; headers?: { get?: unknown } | null } | null
    return typeof candidate?.status === 'number' && typeof candidate.headers?.get === 'function'
  } catch {
    return false
  }
}

/** The `Location` of a response, or `undefined` when it has none or its headers cannot be read. */
function locationOf(response: Response): string | undefined {
  try {
    const location: unknown = response.headers.get('location')
    return typeof location === 'string' ? location : undefined
  } catch {
    return undefined
  }
}

/** The caller's headers plus `Authorization: Bearer`. */
function headersWith(given: RequestInit['headers'], token: string): Headers {
  let headers: Headers
  try {
    headers = new Headers(given)
  } catch {
    throw new ConfigurationError({
      invalidAttribute: 'headers',
      message: 'headers are not valid HTTP header names and values',
    })
  }
  // A token from a server goes through `readTokenResponse`, which refuses one that cannot travel
  // in a header; one an app resumed from elsewhere is refused here, before `Headers` would quote
  // it in its own error.
  if (!isHeaderSafe(token)) {
    throw new TokenError({ message: 'the access token cannot be sent in an HTTP header' })
  }
  headers.set('authorization', `Bearer ${token}`)
  return headers
}

/** Releases a response body that will not be read (a 401 retried, a redirect followed). */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel()
  } catch {
    // A body already released, or a polyfilled one without cancel(): nothing to free.
  }
}

function transportFailure(
  init: RequestInit,
  url: URL,
  reason: 'network' | 'aborted',
  detail: string,
  error?: unknown,
): HttpError {
  const method = typeof init.method === 'string' ? init.method.toUpperCase() : 'GET'
  const where = safeUrl(url.href)
  return new HttpError(
    { reason, url: where, message: `${method} ${where} ${detail}` },
    reason === 'aborted'
      ? { cause: abortedByCaller(where) }
      : error === undefined
        ? undefined
        : { cause: sanitizeCause(error) },
  )
}

interface ReadInput {
  readonly url: string
  readonly init: RequestInit
  readonly replayable: boolean
}

async function readInput(input: unknown, init: unknown): Promise<ReadInput> {
  // A null-prototype copy of the caller's own members: a getter runs once, here.
  const given = readOptions(init as RequestInit | undefined, 'fetch', {
    attribute: 'init',
    description: 'the fetch init',
  }) as RequestInit
  if (given.signal !== undefined) given.signal = optionalSignal(given.signal) ?? null
  if (typeof input === 'string' || input instanceof URL) {
    return { url: String(input), init: given, replayable: isReplayableBody(given.body) }
  }
  if (typeof Request !== 'undefined' && input instanceof Request) {
    let body: ArrayBuffer | undefined
    try {
      body = input.body === null ? undefined : await input.arrayBuffer()
    } catch {
      throw refused('is a Request whose body was already read')
    }
    const fromRequest: RequestInit = {
      method: input.method,
      headers: input.headers,
      ...(body === undefined ? {} : { body }),
      signal: input.signal,
    }
    const merged = { ...fromRequest, ...given }
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
    message: `the request URL ${why}: ${onlyUnderBase}`,
  })
}
