import type { SmartWebApp } from './smart-web-app.js'

/**
 * The parts of a `node:http` `IncomingMessage` (or an Express request) the adapter reads. Typed
 * here rather than imported, so this module loads without `node:` modules (edge bundles too).
 */
export interface NodeRequestLike {
  readonly method?: string | undefined
  readonly url?: string | undefined
  /** Header names and values in the order received, as `IncomingMessage.rawHeaders`. */
  readonly rawHeaders: readonly string[]
  /** The connection: a `TLSSocket` (its `encrypted` is `true`) makes the request `https:`. */
  readonly socket?: object | null | undefined
}

/** The parts of a `node:http` `ServerResponse` (or an Express response) the adapter writes. */
export interface NodeResponseLike {
  readonly headersSent: boolean
  statusCode: number
  setHeader(name: string, value: string | readonly string[]): unknown
  end(body?: string): unknown
  destroy(error?: Error): unknown
}

/** A `node:http` request listener that is also Express middleware. */
export type NodeHandler = (
  request: NodeRequestLike,
  response: NodeResponseLike,
  next?: (error?: unknown) => void,
) => void

/**
 * `web` as a `node:http` request listener and Express middleware: the app's four routes are
 * answered, any other path goes to `next()` (or is `404` without one). A request that cannot
 * become a Fetch `Request` (a method or header value the Fetch API refuses) is `400`.
 *
 * @example
 * ```ts
 * createServer(nodeHandler(web)).listen(3000)   // node:http
 * app.use(nodeHandler(web))                      // Express
 * ```
 */
export function nodeHandler(web: SmartWebApp): NodeHandler {
  return (request, response, next) => {
    // `web.handle` never rejects; this is for a `next()` that throws, or a socket that broke.
    answer(web, request, response, next).catch(() => {
      if (response.headersSent) response.destroy()
      else writePlain(response, 500, 'Internal error')
    })
  }
}

async function answer(
  web: SmartWebApp,
  request: NodeRequestLike,
  response: NodeResponseLike,
  next: ((error?: unknown) => void) | undefined,
): Promise<void> {
  const fetchRequest = toFetchRequest(request)
  if (fetchRequest === undefined) return writePlain(response, 400, 'Bad request')
  const answered = await web.handle(fetchRequest)
  if (answered === undefined) {
    if (next) next()
    else writePlain(response, 404, 'Not found')
    return
  }
  response.statusCode = answered.status
  answered.headers.forEach((value, name) => {
    if (name !== 'set-cookie') response.setHeader(name, value)
  })
  const cookies = answered.headers.getSetCookie()
  if (cookies.length > 0) response.setHeader('set-cookie', cookies)
  response.end(await answered.text())
}

/**
 * The Fetch `Request` for a Node request, as `nodeHandler` makes it: the URL from the `Host`
 * header and the scheme the browser used (so loopback `http:` is told apart from the rest), the
 * headers as received, no body. Use it to call `web.session` from your own `node:http` or
 * Express routes.
 *
 * The scheme is `https:` when the socket is TLS, or when a TLS-terminating proxy says so
 * (`X-Forwarded-Proto: https` or `Forwarded: proto=https`, RFC 7239): a proxy such as nginx
 * reaches the app over loopback `http:`, often with `Host: 127.0.0.1`, and the cookies must
 * still be `Secure` with the `__Host-` name for the browser on the other side. A forged header
 * can only make cookies `Secure`, which a browser on plain `http:` then refuses to keep: it never
 * weakens them.
 *
 * @example
 * ```ts
 * const session = await web.session(fetchRequestFrom(request))
 * ```
 * @throws TypeError when the request cannot be one (a method or header the Fetch API refuses,
 *   a target that is not a path, a `Host` header missing or not a host name with an optional
 *   port); `nodeHandler` answers such requests `400` and never calls `next()` for them.
 * @see https://www.rfc-editor.org/rfc/rfc7239#section-5.4
 */
export function fetchRequestFrom(request: NodeRequestLike): Request {
  const headers = new Headers()
  const raw = request.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2) {
    headers.append(raw[index] as string, raw[index + 1] as string)
  }
  const path = request.url ?? '/'
  if (!path.startsWith('/')) throw new TypeError('the request target is not a path')
  const host = headers.get('host')
  // RFC 9112 §3.2: a request without a Host, or with one that is no host, is a bad request; and
  // a Host holding `/`, `?` or `#` would change the path the routes see.
  if (host === null || !hostHeader.test(host)) {
    throw new TypeError('the Host header is missing or not a host')
  }
  const scheme = cameOverTls(request.socket) || forwardedAsHttps(headers) ? 'https' : 'http'
  const url = new URL(`${scheme}://${host}${path}`)
  return new Request(url, { method: request.method ?? 'GET', headers })
}

/** A host name, IPv4 address or bracketed IPv6 address, with an optional port. */
const hostHeader = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** Whether the connection is TLS (a `TLSSocket`'s `encrypted` is `true`). */
function cameOverTls(socket: object | null | undefined): boolean {
  return typeof socket === 'object' && socket !== null && 'encrypted' in socket
    ? socket.encrypted === true
    : false
}

/**
 * Whether the first proxy said the browser used `https:`: the first value of
 * `X-Forwarded-Proto`, or the `proto` of the first element of `Forwarded` (RFC 7239 §4).
 */
function forwardedAsHttps(headers: Headers): boolean {
  const forwardedProto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  if (forwardedProto === 'https') return true
  const first = headers.get('forwarded')?.split(',')[0] ?? ''
  return first.split(';').some((pair) => /^proto="?https"?$/i.test(pair.trim()))
}

function toFetchRequest(request: NodeRequestLike): Request | undefined {
  try {
    return fetchRequestFrom(request)
  } catch {
    return undefined
  }
}

function writePlain(response: NodeResponseLike, status: number, text: string): void {
  response.statusCode = status
  response.setHeader('content-type', 'text/plain; charset=utf-8')
  response.setHeader('cache-control', 'no-store')
  response.end(`${text}\n`)
}
