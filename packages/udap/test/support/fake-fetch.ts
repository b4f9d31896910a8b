/**
 * A recording fake `fetch`: answers requests in order with the given responders and records
 * every request, so tests can assert what was sent — or that nothing was.
 */
import type { FetchLike } from '@fhir-auth/core'

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: Headers
  readonly body: string
  readonly redirect: RequestRedirect | undefined
}

export type Responder = (request: RecordedRequest) => Response | Promise<Response>

export interface FakeFetch extends FetchLike {
  readonly requests: RecordedRequest[]
}

/** A fetch that answers the n-th request with the n-th responder and fails any extra request. */
export function fakeFetch(...responders: Responder[]): FakeFetch {
  const requests: RecordedRequest[] = []
  const fake = async (url: string, init: RequestInit): Promise<Response> => {
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : '',
      redirect: init.redirect,
    }
    requests.push(request)
    const responder = responders[requests.length - 1]
    if (responder === undefined) throw new Error(`unexpected request ${request.method} ${url}`)
    return responder(request)
  }
  return Object.assign(fake, { requests })
}

/** A JSON response. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
