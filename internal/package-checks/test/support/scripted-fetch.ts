/**
 * A `fetch` double for the README snippet tests: each expected exchange states the method and
 * URL it answers, the calls must come in that order, an unexpected call fails the operation, and
 * `assertAllUsed` fails the test when an expected exchange never happened.
 */
import type { FetchLike } from '@fhir-auth/core'

/** One request as the library sent it. */
export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  readonly body: string
}

/** One expected request and the answer to give. */
export interface ScriptedExchange {
  readonly method: 'GET' | 'POST'
  readonly url: string
  readonly respond: (request: RecordedRequest) => Response
}

/** The double and what it saw. */
export interface ScriptedFetch {
  readonly fetch: FetchLike
  readonly requests: readonly RecordedRequest[]
  assertAllUsed(): void
}

/** A JSON response with the given status (default 200). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

export function scriptedFetch(exchanges: readonly ScriptedExchange[]): ScriptedFetch {
  const pending = [...exchanges]
  const requests: RecordedRequest[] = []
  const fetch: FetchLike = async (url, init) => {
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : String(init.body ?? ''),
    }
    requests.push(request)
    const next = pending.shift()
    if (next === undefined || next.method !== request.method || next.url !== url) {
      throw new Error(`unexpected request ${request.method} ${url}`)
    }
    return next.respond(request)
  }
  return {
    fetch,
    requests,
    assertAllUsed() {
      if (pending.length > 0) {
        throw new Error(`expected requests never made: ${pending.map((e) => e.url).join(', ')}`)
      }
    },
  }
}
