import { requireMaxResponseBytes } from '../checks/response-size.js'
import { optionalSignal, requireTimeoutMs } from '../checks/transport-options.js'
import { HttpError, type HttpErrorReason } from '../errors/http-error.js'
import { type Deadline, startDeadline } from './deadline.js'
import { encodeForm } from './encoding.js'
import { safeUrl } from './safe-url.js'
import { sanitizeCause } from './sanitized-cause.js'
import { defaultMaxResponseBytes, defaultTimeoutMs, type TransportOptions } from './transport.js'
import { networkCause } from './transport-failure.js'
import { checkUrl, insecureUrlAdvice, type UrlProblem } from './url-policy.js'

const maxRedirects = 5

/** One HTTP request. `form` and `json` are mutually exclusive bodies. */
export interface HttpRequest extends TransportOptions {
  readonly method: 'GET' | 'POST'
  readonly url: string
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly form?: Readonly<Record<string, string | undefined>> | undefined
  readonly json?: unknown
  /** A binary body (an OCSP request), sent as is with its content type. */
  readonly bytes?: { readonly contentType: string; readonly data: Uint8Array } | undefined
  /** `Accept` header; default `application/json`. */
  readonly accept?: string | undefined
  /** `bytes` keeps the response body as bytes (`bodyBytes`); default `text`. */
  readonly responseBody?: 'text' | 'bytes' | undefined
  /**
   * Plain HTTP to any host: only for documents whose own signature is the check (CRLs, OCSP
   * responses, CA certificates), which RFC 5280 §4.2.1.13 and RFC 6960 serve over HTTP.
   */
  readonly allowPlainHttp?: boolean | undefined
}

/** A response with its body read (within the size cap) as text. */
export interface HttpResponse {
  /** The URL that answered (after any GET redirects). */
  readonly url: string
  readonly status: number
  readonly headers: Headers
  readonly bodyText: string
  /** The body as bytes, when the request asked for `responseBody: 'bytes'` (`bodyText` is then empty). */
  readonly bodyBytes?: Uint8Array | undefined
}

/**
 * Sends a request under the library's transport policy, which every request goes through:
 *
 * - HTTPS only, or loopback HTTP under `allowInsecureLocalhost` (any HTTP under `allowPlainHttp`,
 *   for signed documents only);
 * - `Accept: application/json`; form or JSON body encoding with its content type;
 * - a timeout (default 10 s) combined with the caller's `AbortSignal`, covering the body too;
 * - `redirect: 'manual'`: a 3xx answer to a POST is an error (POSTs are never re-sent); GET
 *   redirects are followed (at most 5) only to URLs the same policy accepts;
 * - a body size cap (default 1 MiB).
 *
 * @throws ConfigurationError on `timeoutMs`, `signal` or `maxResponseBytes` of the wrong type or
 *   out of range, before anything is sent.
 * @throws HttpError with a `reason` for every transport failure. The status of a response is
 *   not judged here: callers read 4xx/5xx bodies for OAuth errors.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 */
export async function sendRequest(request: HttpRequest): Promise<HttpResponse> {
  const timeoutMs =
    request.timeoutMs === undefined ? defaultTimeoutMs : requireTimeoutMs(request.timeoutMs)
  const signal = optionalSignal(request.signal)
  if (request.maxResponseBytes !== undefined) requireMaxResponseBytes(request.maxResponseBytes)
  const exchange: Exchange = {
    request,
    url: request.url,
    deadline: startDeadline(timeoutMs, signal),
    timeoutMs,
  }
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetchOnce(exchange)
      if (
        !(response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400))
      ) {
        const body = await readBody(exchange, response)
        const { url } = exchange
        if (request.responseBody !== 'bytes') {
          return {
            url,
            status: response.status,
            headers: response.headers,
            bodyText: await body.text(),
          }
        }
        const bodyBytes = new Uint8Array(await body.arrayBuffer())
        return { url, status: response.status, headers: response.headers, bodyText: '', bodyBytes }
      }
      discard(response)
      exchange.url = nextLocation(exchange, response, redirects)
    }
  } finally {
    exchange.deadline.dispose()
  }
}

/** One request in flight: what was asked, where it is now (after redirects), its time budget. */
interface Exchange {
  readonly request: HttpRequest
  url: string
  readonly deadline: Deadline
  readonly timeoutMs: number
}

/** An `HttpError` whose message starts with the method and the URL (never its query). */
function fail(
  exchange: Exchange,
  reason: HttpErrorReason,
  detail: string,
  status?: number,
  cause?: unknown,
): HttpError {
  const url = safeUrl(exchange.url)
  return new HttpError(
    { message: `${exchange.request.method} ${url} ${detail}`, reason, url, status },
    cause === undefined ? undefined : { cause: sanitizeCause(cause) },
  )
}

/** The timeout or the caller's abort, whichever ended the exchange. */
function expired(exchange: Exchange): HttpError {
  return exchange.deadline.reason === 'aborted'
    ? fail(exchange, 'aborted', 'was aborted by the caller')
    : fail(exchange, 'timeout', `timed out after ${exchange.timeoutMs} ms`)
}

async function fetchOnce(exchange: Exchange): Promise<Response> {
  const { request, url, deadline } = exchange
  const allowInsecure = request.allowInsecureLocalhost === true
  const problem = urlProblem(request, url)
  if (problem !== undefined) {
    throw fail(
      exchange,
      problem,
      problem === 'invalid-url'
        ? 'refused: not an absolute URL without user info'
        : `refused: HTTPS is required ${insecureUrlAdvice(url, allowInsecure)}`,
    )
  }
  const headers: Record<string, string> = { accept: request.accept ?? 'application/json' }
  let body: string | Uint8Array<ArrayBuffer> | null = null
  if (request.bytes !== undefined) {
    headers['content-type'] = request.bytes.contentType
    body = new Uint8Array(request.bytes.data)
  } else if (request.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = encodeForm(request.form)
  } else if (request.json !== undefined) {
    headers['content-type'] = 'application/json'
    try {
      body = JSON.stringify(request.json)
    } catch {
      // Cycles and BigInts cannot be sent; say so instead of surfacing a raw TypeError.
      throw fail(exchange, 'invalid-body', 'refused: the JSON body cannot be serialised')
    }
  }
  for (const [name, value] of Object.entries(request.headers ?? {}))
    headers[name.toLowerCase()] = value
  if (deadline.reason !== undefined) throw expired(exchange)
  const fetchImplementation = request.fetch ?? globalThis.fetch
  const init: RequestInit = {
    method: request.method,
    headers,
    body,
    redirect: 'manual',
    signal: deadline.signal,
  }
  let response: unknown
  try {
    response = await deadline.race(Promise.resolve().then(() => fetchImplementation(url, init)))
  } catch (error) {
    if (deadline.reason !== undefined) throw expired(exchange)
    throw fail(exchange, 'network', `failed: ${networkCause(error)}`, undefined, error)
  }
  // A custom fetch may resolve to anything; the rest needs a status and headers.
  const candidate = response as { status?: unknown; headers?: { get?: unknown } | null } | null
  if (typeof candidate?.status !== 'number' || typeof candidate.headers?.get !== 'function') {
    throw fail(exchange, 'network', 'failed: fetch did not return a Response')
  }
  return response as Response
}

function nextLocation(exchange: Exchange, response: Response, redirects: number): string {
  const status = response.status || undefined
  const location = response.headers.get('location')
  const next =
    location !== null && URL.canParse(location, exchange.url)
      ? new URL(location, exchange.url).href
      : undefined
  // POSTs are never re-sent: codes are single use and registration is not idempotent.
  const problem =
    exchange.request.method !== 'GET'
      ? 'POSTs are never re-sent'
      : redirects >= maxRedirects
        ? `more than ${maxRedirects} redirects`
        : next === undefined || response.type === 'opaqueredirect'
          ? 'a redirect it cannot follow (no usable Location)'
          : urlProblem(exchange.request, next) !== undefined
            ? `${safeUrl(next)} is refused by the HTTPS policy`
            : undefined
  if (problem !== undefined || next === undefined) {
    throw fail(
      exchange,
      'redirect',
      `answered with a redirect (HTTP ${status}): ${problem}`,
      status,
    )
  }
  return next
}

/** The URL policy of one request: {@link checkUrl}, with plain HTTP to any host for signed documents. */
function urlProblem(request: HttpRequest, url: string): UrlProblem | undefined {
  const problem = checkUrl(url, request.allowInsecureLocalhost === true)
  return problem === 'insecure-url' &&
    request.allowPlainHttp === true &&
    /^http:\/\/[^/?#]/i.test(url)
    ? undefined
    : problem
}

/**
 * The body within the size cap, as a `Blob` of the chunks as they arrived: read as text (UTF-8,
 * as `TextDecoder` reads it) or as bytes by the caller.
 */
async function readBody(exchange: Exchange, response: Response): Promise<Blob> {
  const { deadline } = exchange
  const limit = exchange.request.maxResponseBytes ?? defaultMaxResponseBytes
  const tooLarge = () =>
    fail(exchange, 'too-large', `response body exceeds ${limit} bytes`, response.status)
  if (Number(response.headers.get('content-length') ?? Number.NaN) > limit) {
    discard(response)
    throw tooLarge()
  }
  const body = response.body
  const chunks: Uint8Array<ArrayBuffer>[] = []
  if (body === null || body === undefined) return new Blob(chunks)
  let total = 0
  try {
    if (typeof body.getReader !== 'function') {
      // Fetch polyfills (node-fetch 2) hand out Node streams: read them whole, then cap.
      const bytes = new Uint8Array(await deadline.race(response.arrayBuffer()))
      total = bytes.byteLength
      chunks.push(bytes)
    } else {
      const reader = body.getReader()
      try {
        for (
          let read = await deadline.race(reader.read());
          !read.done;
          read = await deadline.race(reader.read())
        ) {
          total += read.value.byteLength
          if (total > limit) break
          chunks.push(read.value)
        }
      } finally {
        if (total > limit || deadline.reason !== undefined) reader.cancel().catch(() => {})
      }
    }
  } catch (error) {
    if (deadline.reason !== undefined) throw expired(exchange)
    throw fail(
      exchange,
      'network',
      `failed reading the response: ${networkCause(error)}`,
      response.status,
      error,
    )
  }
  if (total > limit) throw tooLarge()
  return new Blob(chunks)
}

function discard(response: Response): void {
  try {
    response.body?.cancel().catch(() => {})
  } catch {
    // A polyfilled body without cancel(): nothing to release.
  }
}
