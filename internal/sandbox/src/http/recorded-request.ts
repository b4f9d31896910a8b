import type { IncomingHttpHeaders } from 'node:http'
import { mediaTypeOf } from './body-format.js'

/**
 * One request the sandbox front received, for tests to inspect (e.g. the client assertion the
 * library sent, or that no registration request was made).
 *
 * Header names are lower-case; repeated headers are joined with `, `. `form` is set for
 * `application/x-www-form-urlencoded` bodies and `json` for `application/json` bodies (`null`
 * when the JSON did not parse); `body` is the raw text whenever there was a body.
 */
export interface RecordedRequest {
  readonly method: string
  /** The absolute URL of the request on the sandbox origin. */
  readonly url: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  readonly form?: Readonly<Record<string, string>>
  readonly json?: unknown
  readonly receivedAt: Date
}

/** The parts of a request {@link recordRequest} needs. */
export interface RequestParts {
  readonly method: string
  readonly url: URL
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** Builds the {@link RecordedRequest} of a received request. */
export function recordRequest(parts: RequestParts): RecordedRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(parts.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const record: {
    -readonly [K in keyof RecordedRequest]: RecordedRequest[K]
  } = {
    method: parts.method,
    url: parts.url.href,
    path: parts.url.pathname,
    query: Object.fromEntries(parts.url.searchParams),
    headers,
    receivedAt: new Date(),
  }
  if (parts.body.length === 0) return record
  const text = parts.body.toString('utf8')
  record.body = text
  const mediaType = mediaTypeOf(headers['content-type'])
  if (mediaType === 'application/x-www-form-urlencoded') {
    record.form = Object.fromEntries(new URLSearchParams(text))
  } else if (mediaType === 'application/json') {
    record.json = parseJsonOrNull(text)
  }
  return record
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * The requests a sandbox received (or other records of them), oldest first, capped so that a
 * long benchmark does not grow memory without bound (the oldest entries are dropped first).
 */
export class RequestLog<T = RecordedRequest> {
  readonly #entries: T[] = []
  readonly #limit: number

  constructor(limit: number) {
    this.#limit = limit
  }

  add(request: T): void {
    if (this.#limit <= 0) return
    this.#entries.push(request)
    if (this.#entries.length > this.#limit) this.#entries.shift()
  }

  /** A snapshot: later requests do not change an array already returned. */
  entries(): readonly T[] {
    return [...this.#entries]
  }

  clear(): void {
    this.#entries.length = 0
  }
}
