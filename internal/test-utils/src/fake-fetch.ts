/**
 * The one fake `fetch` of the unit tests (`@fhir-auth/test-utils/fake-fetch`; portable: it runs
 * in Node, the edge runtime and Chromium). Each expectation states the method and URL of one
 * request — optionally its headers and body — and the `Response` to answer with; requests must
 * come in the order given.
 *
 * A throw inside `fetch` would only become a network error in the code under test, so
 * mismatches, unexpected calls and unused expectations are collected instead, and the fake
 * verifies itself when its test ends: a test cannot forget to. `assertDone()` checks the same
 * earlier, for a test that wants to fail at a precise point.
 *
 * @example
 * ```ts
 * const fetch = fakeFetch({
 *   method: 'POST',
 *   url: 'https://auth.example.org/token',
 *   form: { grant_type: 'client_credentials', scope: 'system/*.rs' },
 *   headers: { authorization: null },
 *   respond: () => jsonResponse({ access_token: 'a', token_type: 'Bearer' }),
 * })
 * await requestToken({ fetch })
 * ```
 */
import type { FetchLike } from '@fhir-auth/core'
import { expect, onTestFinished } from 'vitest'

/** A request as the fake received it. */
export interface CapturedRequest {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  /** The body when it was a string (forms and JSON are), else `''`. */
  readonly bodyText: string
  readonly redirect: RequestRedirect | undefined
  readonly signal: AbortSignal | undefined
}

/** One expected request and its answer. */
export interface ExpectedRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** The exact URL, query included. */
  readonly url: string
  /** Header values that must match (`toEqual`: matchers allowed); `null`: must be absent. */
  readonly headers?: Readonly<Record<string, unknown>>
  /** The complete form body (every parameter, nothing else); values may be Vitest matchers. */
  readonly form?: Readonly<Record<string, unknown>>
  /** The JSON body, compared with `toEqual`. */
  readonly json?: unknown
  readonly respond: (request: CapturedRequest) => Response | Promise<Response>
}

export interface FakeFetch extends FetchLike {
  /** Every request received, in order. */
  readonly calls: readonly CapturedRequest[]
  /** Fails on a mismatch, an unexpected call, or an expectation never used. */
  assertDone(): void
}

/**
 * A fetch that expects exactly `expectations`, in order, and verifies itself when the current
 * test ends. Create it inside the test (or a `beforeEach`) that uses it.
 */
export function fakeFetch(...expectations: ExpectedRequest[]): FakeFetch {
  const pending = [...expectations]
  const calls: CapturedRequest[] = []
  const problems: string[] = []
  let reportedFailure = false
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
      redirect: init.redirect,
      signal: init.signal ?? undefined,
    }
    calls.push(request)
    const expected = pending.shift()
    if (expected === undefined) {
      problems.push(`unexpected request ${request.method} ${url}`)
      throw new Error('unexpected request')
    }
    checkRequest(expected, request, check)
    return expected.respond(request)
  }
  const assertDone = () => {
    const unused = pending.map(
      (expected) => `expected request never made: ${expected.method} ${expected.url}`,
    )
    const all = [...problems, ...unused]
    if (all.length > 0) {
      reportedFailure = true
      throw new Error(`fake fetch:\n  ${all.join('\n  ')}`)
    }
  }
  onTestFinished(() => {
    // Once reported, the failure is the test's to handle (or to expect, in this fake's tests).
    if (!reportedFailure) assertDone()
  })
  return Object.assign(fake, { calls, assertDone })
}

/** An answer to any request for one URL (query left out), whatever order requests come in. */
export type RouteHandler = (request: CapturedRequest) => Response | Promise<Response>

/** {@link fakeRoutes}: the fetch, what it received, and a count per URL. */
export interface FakeRoutes {
  readonly fetch: FetchLike
  /** Every request received, in order. */
  readonly requests: readonly CapturedRequest[]
  /** How many requests went to exactly this URL (query included). */
  count(url: string): number
  /** Fails on a request with no route or a wrong redirect mode (also run when the test ends). */
  assertDone(): void
}

/**
 * A fetch that answers by URL rather than by order, for tests where concurrent callers make the
 * order of requests unknowable (shared refreshes, aborts racing a discovery). It verifies itself
 * like {@link fakeFetch}: a request to a URL with no route, or with a redirect mode other than
 * `manual`, fails the test when it ends (and is answered 404, as a server would).
 */
export function fakeRoutes(routes: Readonly<Record<string, RouteHandler>>): FakeRoutes {
  const requests: CapturedRequest[] = []
  const problems: string[] = []
  const fetch: FetchLike = async (url, init) => {
    const request: CapturedRequest = {
      method: init.method ?? 'GET',
      url,
      headers: new Headers(init.headers),
      bodyText: typeof init.body === 'string' ? init.body : '',
      redirect: init.redirect,
      signal: init.signal ?? undefined,
    }
    requests.push(request)
    // The library follows redirects itself, or refuses them (docs/adr/0003-http-policy.md).
    if (init.redirect !== 'manual')
      problems.push(`${request.method} ${url}: redirect mode ${init.redirect}`)
    const handler = routes[url.split('?')[0] as string]
    if (handler === undefined) {
      problems.push(`no route for ${request.method} ${url}`)
      return new Response('not found', { status: 404 })
    }
    return handler(request)
  }
  let reportedFailure = false
  const assertDone = () => {
    if (problems.length === 0) return
    reportedFailure = true
    throw new Error(`fake routes:\n  ${problems.join('\n  ')}`)
  }
  onTestFinished(() => {
    if (!reportedFailure) assertDone()
  })
  return {
    fetch,
    requests,
    assertDone,
    count: (url) => requests.filter((request) => request.url === url).length,
  }
}

function checkRequest(
  expected: ExpectedRequest,
  request: CapturedRequest,
  check: (label: string, assertion: () => void) => void,
): void {
  const where = `${expected.method} ${expected.url}`
  check(`${where}: method`, () => expect(request.method).toBe(expected.method))
  check(`${where}: url`, () => expect(request.url).toBe(expected.url))
  // The library follows redirects itself, or refuses them (docs/adr/0003-http-policy.md).
  check(`${where}: redirect mode`, () => expect(request.redirect).toBe('manual'))
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    check(`${where}: header ${name}`, () => expect(request.headers.get(name)).toEqual(value))
  }
  if (expected.form !== undefined) {
    const form = new URLSearchParams(request.bodyText)
    check(`${where}: content-type`, () =>
      expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded'),
    )
    check(`${where}: form names unique`, () =>
      expect(new Set(form.keys()).size).toBe([...form.keys()].length),
    )
    check(`${where}: form`, () => expect(Object.fromEntries(form)).toEqual(expected.form))
  }
  if (expected.json !== undefined) {
    check(`${where}: content-type`, () =>
      expect(request.headers.get('content-type')).toBe('application/json'),
    )
    check(`${where}: json`, () => expect(JSON.parse(request.bodyText)).toEqual(expected.json))
  }
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
