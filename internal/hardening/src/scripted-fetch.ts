import type { FetchLike } from '@fhir-auth/core'

/** One call the library made on an injected `fetch`, with its body decoded. */
export interface FetchCall {
  readonly url: string
  readonly method: string
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
  /** The form members, for `application/x-www-form-urlencoded` bodies. */
  readonly form: Readonly<Record<string, string>> | undefined
}

/** A response: status (default 200), body and headers, or a body stream that misbehaves. */
export interface ScriptedResponse {
  readonly status?: number
  readonly body?: string | Uint8Array | null
  readonly headers?: Readonly<Record<string, string>>
  /** `never-ends`: one chunk, then nothing, ever. `errors`: one chunk, then a stream error. */
  readonly stream?: 'never-ends' | 'errors'
  /** The body as a stream of these chunks, with no `content-length` (chunked transfer). */
  readonly chunks?: readonly Uint8Array[]
}

/** How a scripted `fetch` answers one call. */
export type ScriptedAnswer =
  | ScriptedResponse
  /** Throws `thrown`: synchronously (before returning a promise) or as a rejection. */
  | { readonly throws: unknown; readonly synchronously?: boolean }
  /** Returns a promise that never settles and ignores the abort signal. */
  | { readonly hangs: true }
  /** Resolves to something that is not a `Response` (a broken wrapper or polyfill). */
  | { readonly resolvesTo: unknown }

/** A `fetch` test double and the calls it received. */
export interface ScriptedFetch {
  readonly fetch: FetchLike
  readonly calls: readonly FetchCall[]
}

/** Statuses whose responses cannot have a body (the `Response` constructor refuses one). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304])

/**
 * A `fetch` that answers each call as `answer` decides, never touching the network. It
 * records every call (URL, method, headers, body, form) so tests can check what was sent,
 * and can misbehave the ways real fetches and servers do.
 */
export function scriptedFetch(answer: (call: FetchCall) => ScriptedAnswer): ScriptedFetch {
  const calls: FetchCall[] = []
  const fetch = ((url: string, init: RequestInit): Promise<Response> => {
    const call = describeCall(url, init)
    calls.push(call)
    const scripted = answer(call)
    if ('throws' in scripted) {
      if (scripted.synchronously === true) throw scripted.throws
      return Promise.reject(scripted.throws)
    }
    if ('hangs' in scripted) return new Promise<Response>(() => {})
    if ('resolvesTo' in scripted) return Promise.resolve(scripted.resolvesTo as Response)
    return Promise.resolve(buildResponse(scripted))
  }) as FetchLike
  return { fetch, calls }
}

/** Builds a real `Response` from a scripted one. */
export function buildResponse(scripted: ScriptedResponse): Response {
  const status = scripted.status ?? 200
  const headers = new Headers(scripted.headers ?? {})
  if (nullBodyStatuses.has(status)) return new Response(null, { status, headers })
  if (scripted.stream !== undefined) {
    return new Response(misbehavingStream(scripted.stream), { status, headers })
  }
  if (scripted.chunks !== undefined) {
    return new Response(chunkedStream(scripted.chunks), { status, headers })
  }
  const body = scripted.body ?? null
  return new Response(typeof body === 'string' || body === null ? body : body.slice(), {
    status,
    headers,
  })
}

function misbehavingStream(kind: 'never-ends' | 'errors'): ReadableStream<Uint8Array> {
  let sent = false
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true
        controller.enqueue(new TextEncoder().encode('{"partial":'))
        return
      }
      if (kind === 'errors') {
        controller.error(new Error('connection reset by peer'))
        return
      }
      // never-ends: a pull that never resolves, so the reader waits forever.
      return new Promise<void>(() => {})
    },
  })
}

function chunkedStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++]
      if (chunk === undefined) controller.close()
      else controller.enqueue(chunk.slice())
    },
  })
}

function describeCall(url: string, init: RequestInit | undefined): FetchCall {
  const headers: Record<string, string> = {}
  new Headers(init?.headers ?? {}).forEach((value, name) => {
    headers[name] = value
  })
  const body = typeof init?.body === 'string' ? init.body : undefined
  const isForm = headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true
  return {
    url: String(url),
    method: init?.method ?? 'GET',
    headers,
    body,
    form: isForm && body !== undefined ? Object.fromEntries(new URLSearchParams(body)) : undefined,
  }
}

/** A `fetch` that passes calls to `inner` (default: the real one) and records them. */
export function recordingFetch(
  inner: FetchLike = (url, init) => globalThis.fetch(url, init),
): ScriptedFetch & {
  /** Forgets the recorded calls. */
  clear(): void
} {
  const calls: FetchCall[] = []
  return {
    fetch: (url, init) => {
      calls.push(describeCall(url, init))
      return inner(url, init)
    },
    calls,
    clear() {
      calls.length = 0
    },
  }
}
