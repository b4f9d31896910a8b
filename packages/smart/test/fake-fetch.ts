/**
 * A fake `fetch` for unit tests: each expectation states the method, URL, headers and body
 * of one request and the `Response` to answer with. Mismatches, unexpected calls and unused
 * expectations are collected (a throw inside `fetch` would only become a network error in the
 * code under test) and reported by `assertDone()`, which every test calls.
 */
import type { FetchLike } from '@fhir-auth/core'
import { expect } from 'vitest'

export interface CapturedRequest {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  readonly bodyText: string
  readonly signal: AbortSignal | undefined
}

export interface ExpectedRequest {
  readonly method: 'GET' | 'POST'
  readonly url: string
  /** Header values that must match exactly; `null` means the header must be absent. */
  readonly headers?: Readonly<Record<string, string | null | unknown>>
  /** The complete form body (every parameter, nothing else); values may be vitest matchers. */
  readonly form?: Readonly<Record<string, unknown>>
  /** The JSON body, compared with `toEqual`. */
  readonly json?: unknown
  readonly respond: (request: CapturedRequest) => Response | Promise<Response>
}

export interface FakeFetch extends FetchLike {
  readonly calls: CapturedRequest[]
  /** Fails the test on a mismatch, an unexpected call, or an expectation never used. */
  assertDone(): void
}

export function fakeFetch(...expectations: ExpectedRequest[]): FakeFetch {
  const pending = [...expectations]
  const calls: CapturedRequest[] = []
  const problems: string[] = []
  const check = (label: string, assertion: () => void) => {
    try {
      assertion()
    } catch (error) {
      problems.push(`${label}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const fake = async (url: string, init: RequestInit): Promise<Response> => {
    const request: CapturedRequest = {
      method: init.method ?? 'GET',
      url,
      headers: new Headers(init.headers),
      bodyText: typeof init.body === 'string' ? init.body : '',
      signal: init.signal ?? undefined,
    }
    calls.push(request)
    const expected = pending.shift()
    if (expected === undefined) {
      problems.push(`unexpected request ${request.method} ${url}`)
      throw new Error('unexpected request')
    }
    check('method', () => expect(request.method).toBe(expected.method))
    check('url', () => expect(request.url).toBe(expected.url))
    check('redirect mode', () => expect(init.redirect).toBe('manual'))
    for (const [name, value] of Object.entries(expected.headers ?? {})) {
      check(`header ${name}`, () => expect(request.headers.get(name)).toEqual(value))
    }
    if (expected.form !== undefined) {
      const form = new URLSearchParams(request.bodyText)
      check('content-type', () =>
        expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded'),
      )
      check('form names unique', () =>
        expect(new Set(form.keys()).size).toBe([...form.keys()].length),
      )
      check('form', () => expect(Object.fromEntries(form)).toEqual(expected.form))
    }
    if (expected.json !== undefined) {
      check('content-type', () =>
        expect(request.headers.get('content-type')).toBe('application/json'),
      )
      check('json', () => expect(JSON.parse(request.bodyText)).toEqual(expected.json))
    }
    return expected.respond(request)
  }
  return Object.assign(fake, {
    calls,
    assertDone() {
      const unused = pending.map(
        (expected) => `expected request never made: ${expected.method} ${expected.url}`,
      )
      expect([...problems, ...unused]).toEqual([])
    },
  })
}

/** A JSON response. */
export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** A fetch that never answers (but honours its abort signal, like a real one). */
export const hangingFetch: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
  })
