import { HttpError, type HttpErrorReason } from '../errors/http-error.js'
import { type Deadline, startDeadline } from './deadline.js'
import { encodeForm } from './encoding.js'
import { checkUrl } from './url-policy.js'

/**
 * The `fetch` the library calls: narrower than `typeof fetch`, so wrappers (undici, ky, a test
 * double) fit. Defaults to `globalThis.fetch`, looked up at call time.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** Default time limit for one request, redirects and body included: 10 seconds. */
export const defaultTimeoutMs = 10_000

/** Default cap on a response body: 1 MiB. Larger bodies fail with `too-large`. */
export const defaultMaxResponseBytes = 1_048_576

const maxRedirects = 5

/** Transport settings every request accepts. */
export interface TransportOptions {
  readonly fetch?: FetchLike | undefined
  /** Time limit in milliseconds, default {@link defaultTimeoutMs}. */
  readonly timeoutMs?: number | undefined
  /** The caller's cancellation; combined with the timeout. */
  readonly signal?: AbortSignal | undefined
  /** Permit HTTP to loopback hosts (development only). */
  readonly allowInsecureLocalhost?: boolean | undefined
  /** Body size cap in bytes, default {@link defaultMaxResponseBytes}. */
  readonly maxResponseBytes?: number | undefined
}

/** One HTTP request. `form` and `json` are mutually exclusive bodies. */
export interface HttpRequest extends TransportOptions {
  readonly method: 'GET' | 'POST'
  readonly url: string
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly form?: Readonly<Record<string, string | undefined>> | undefined
  readonly json?: unknown
}

/** A response with its body read (within the size cap) as text. */
export interface HttpResponse {
  /** The URL that answered (after any GET redirects). */
  readonly url: string
  readonly status: number
  readonly headers: Headers
  readonly bodyText: string
}

/**
 * Sends a request under the library's transport policy, which every request goes through:
 *
 * - HTTPS only, or loopback HTTP under `allowInsecureLocalhost`;
 * - `Accept: application/json`; form or JSON body encoding with its content type;
 * - a timeout (default 10 s) combined with the caller's `AbortSignal`, covering the body too;
 * - `redirect: 'manual'`: a 3xx answer to a POST is an error (POSTs are never re-sent); GET
 *   redirects are followed (at most 5) only to URLs the same policy accepts;
 * - a body size cap (default 1 MiB).
 *
 * @throws HttpError with a `reason` for every transport failure. The status of a response is
 *   not judged here: callers read 4xx/5xx bodies for OAuth errors.
 * @see docs/adr/0003-http-policy.md in the fhir-auth repository
 */
export async function sendRequest(request: HttpRequest): Promise<HttpResponse> {
  const timeoutMs = request.timeoutMs ?? defaultTimeoutMs
  const deadline = startDeadline(timeoutMs, request.signal)
  try {
    let url = request.url
    for (let redirects = 0; ; redirects++) {
      const response = await fetchOnce(request, url, deadline, timeoutMs)
      if (!isRedirect(response)) {
        const bodyText = await readBody(response, request, url, deadline, timeoutMs)
        return { url, status: response.status, headers: response.headers, bodyText }
      }
      discard(response)
      url = nextLocation(request, url, response, redirects)
    }
  } finally {
    deadline.dispose()
  }
}

async function fetchOnce(
  request: HttpRequest,
  url: string,
  deadline: Deadline,
  timeoutMs: number,
): Promise<Response> {
  const problem = checkUrl(url, request.allowInsecureLocalhost === true)
  if (problem !== undefined) {
    throw failure(
      problem,
      url,
      problem === 'invalid-url'
        ? `${request.method} refused: not an absolute URL`
        : `${request.method} ${safeUrl(url)} refused: HTTPS is required${request.allowInsecureLocalhost ? '' : ' (HTTP is allowed only for loopback hosts with allowInsecureLocalhost)'}`,
    )
  }
  const fetchImplementation = request.fetch ?? globalThis.fetch
  const init: RequestInit = {
    method: request.method,
    headers: buildHeaders(request),
    redirect: 'manual',
    signal: deadline.signal,
  }
  init.body = encodeBody(request, url)
  if (deadline.reason !== undefined) throw expiredError(request, url, deadline, timeoutMs)
  let response: unknown
  try {
    response = await deadline.race(Promise.resolve().then(() => fetchImplementation(url, init)))
  } catch (error) {
    if (deadline.reason !== undefined) throw expiredError(request, url, deadline, timeoutMs)
    throw failure(
      'network',
      url,
      `${request.method} ${safeUrl(url)} failed: ${networkCause(error)}`,
      undefined,
      error,
    )
  }
  if (!isResponseLike(response)) {
    throw failure(
      'network',
      url,
      `${request.method} ${safeUrl(url)} failed: fetch did not return a Response`,
    )
  }
  return response
}

/** A custom `fetch` may resolve to anything; the rest of this file needs a status and headers. */
function isResponseLike(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as { status?: unknown; headers?: { get?: unknown } | null }
  return typeof candidate.status === 'number' && typeof candidate.headers?.get === 'function'
}

function buildHeaders(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (request.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
  else if (request.json !== undefined) headers['content-type'] = 'application/json'
  for (const [name, value] of Object.entries(request.headers ?? {}))
    headers[name.toLowerCase()] = value
  return headers
}

function encodeBody(request: HttpRequest, url: string): string | null {
  if (request.form !== undefined) return encodeForm(request.form)
  if (request.json === undefined) return null
  try {
    return JSON.stringify(request.json)
  } catch {
    // Cycles and BigInts cannot be sent; say so instead of surfacing a raw TypeError.
    throw failure(
      'invalid-body',
      url,
      `${request.method} ${safeUrl(url)} refused: the JSON body cannot be serialised`,
    )
  }
}

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)
}

function nextLocation(
  request: HttpRequest,
  url: string,
  response: Response,
  redirects: number,
): string {
  const status = response.status
  if (request.method !== 'GET') {
    throw failure(
      'redirect',
      url,
      `POST ${safeUrl(url)} answered with a redirect (HTTP ${status}); POSTs are never re-sent`,
      status,
    )
  }
  const location = response.headers.get('location')
  if (response.type === 'opaqueredirect' || location === null) {
    throw failure(
      'redirect',
      url,
      `GET ${safeUrl(url)} answered with a redirect the library cannot follow (no Location)`,
      status || undefined,
    )
  }
  if (redirects >= maxRedirects) {
    throw failure(
      'redirect',
      url,
      `GET ${safeUrl(url)} redirected more than ${maxRedirects} times`,
      status,
    )
  }
  let next: string
  try {
    next = new URL(location, url).href
  } catch {
    throw failure('redirect', url, `GET ${safeUrl(url)} redirected to an invalid Location`, status)
  }
  const problem = checkUrl(next, request.allowInsecureLocalhost === true)
  if (problem !== undefined) {
    throw failure(
      'redirect',
      url,
      `GET ${safeUrl(url)} redirected to ${safeUrl(next)}, which the HTTPS policy refuses`,
      status,
    )
  }
  return next
}

async function readBody(
  response: Response,
  request: HttpRequest,
  url: string,
  deadline: Deadline,
  timeoutMs: number,
): Promise<string> {
  const limit = request.maxResponseBytes ?? defaultMaxResponseBytes
  const tooLarge = () =>
    failure(
      'too-large',
      url,
      `${request.method} ${safeUrl(url)}: response body exceeds ${limit} bytes`,
      response.status,
    )
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) {
    discard(response)
    throw tooLarge()
  }
  if (response.body === null || response.body === undefined) return ''
  if (typeof response.body.getReader !== 'function') {
    // Fetch polyfills (node-fetch 2) hand out Node streams; read them whole, then cap.
    return readWhole(response, request, url, deadline, timeoutMs, limit)
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await deadline.race(reader.read())
      if (done) break
      total += value.byteLength
      if (total > limit) throw tooLarge()
      chunks.push(value)
    }
  } catch (error) {
    reader.cancel().catch(() => {})
    if (error instanceof HttpError) throw error
    if (deadline.reason !== undefined) throw expiredError(request, url, deadline, timeoutMs)
    throw failure(
      'network',
      url,
      `${request.method} ${safeUrl(url)}: reading the response failed: ${networkCause(error)}`,
      response.status,
      error,
    )
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

async function readWhole(
  response: Response,
  request: HttpRequest,
  url: string,
  deadline: Deadline,
  timeoutMs: number,
  limit: number,
): Promise<string> {
  let bytes: ArrayBuffer
  try {
    bytes = await deadline.race(response.arrayBuffer())
  } catch {
    if (deadline.reason !== undefined) throw expiredError(request, url, deadline, timeoutMs)
    throw failure(
      'network',
      url,
      `${request.method} ${safeUrl(url)}: reading the response failed`,
      response.status,
    )
  }
  if (bytes.byteLength > limit) {
    throw failure(
      'too-large',
      url,
      `${request.method} ${safeUrl(url)}: response body exceeds ${limit} bytes`,
      response.status,
    )
  }
  return new TextDecoder().decode(bytes)
}

function discard(response: Response): void {
  try {
    response.body?.cancel().catch(() => {})
  } catch {
    // A polyfilled body without cancel(): nothing to release.
  }
}

function expiredError(
  request: HttpRequest,
  url: string,
  deadline: Deadline,
  timeoutMs: number,
): HttpError {
  return deadline.reason === 'aborted'
    ? failure('aborted', url, `${request.method} ${safeUrl(url)} was aborted by the caller`)
    : failure('timeout', url, `${request.method} ${safeUrl(url)} timed out after ${timeoutMs} ms`)
}

function failure(
  reason: HttpErrorReason,
  url: string,
  message: string,
  status?: number,
  cause?: unknown,
): HttpError {
  return new HttpError(
    { message, reason, url: safeUrl(url), status },
    cause === undefined ? undefined : { cause: sanitizeCause(cause) },
  )
}

/** The URL without user info, query or fragment: enough to say where, never a secret. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return '(invalid URL)'
  }
}

/**
 * The error code of a transport error (`ECONNREFUSED`, `UND_ERR_SOCKET`…), read defensively: a
 * hostile `fetch` may throw anything, with getters that throw. Only code-shaped strings are kept,
 * so a `code` carrying request data cannot travel on.
 */
function errorCode(error: unknown): string | undefined {
  try {
    const record = error as { code?: unknown; cause?: { code?: unknown } } | undefined
    const code = record?.code ?? record?.cause?.code
    return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,39}$/.test(code) ? code : undefined
  } catch {
    return undefined
  }
}

function errorName(error: unknown): string {
  try {
    return error instanceof Error && /^[A-Za-z]{1,40}$/.test(error.name) ? error.name : 'Error'
  } catch {
    return 'Error'
  }
}

function networkCause(error: unknown): string {
  const name = errorName(error)
  return errorCode(error) ?? (name === 'TypeError' || name === 'Error' ? 'network error' : name)
}

/**
 * Keeps only a transport error's name and code: a custom `fetch` may quote the request — and so
 * its body, with codes, verifiers, assertions or secrets — in its message or attach it to the error.
 */
function sanitizeCause(error: unknown): Error {
  const name = errorName(error)
  const code = errorCode(error)
  const copy = new Error(code === undefined ? name : `${name} (${code})`)
  copy.name = name
  if (code !== undefined) Object.defineProperty(copy, 'code', { value: code, enumerable: true })
  return copy
}
