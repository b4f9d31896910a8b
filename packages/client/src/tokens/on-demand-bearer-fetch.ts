import { lazy, lazyImport } from '@fhir-auth/core/internal/checks'
import type { BearerFetchInput, BearerFetchOptions } from './bearer-fetch.js'

// Loaded from the launch module, which re-exports it: a launch ends with the session's first
// request, so the two travel as one chunk (one gzip dictionary, one request) — see ADR 0012.
const bearerFetchModule = lazyImport(() => import('../launch/authorization-flow.js'))

/**
 * `bearerFetch` whose code loads with the first request: a session or a `backendTokens`
 * handle is made at once, and an app that never calls its `fetch` never downloads the URL rules
 * and the redirect and retry logic behind it. A chunk that fails to load is loaded again by the
 * next request.
 *
 * @internal
 */
export function onDemandBearerFetch(
  options: BearerFetchOptions,
): (input: BearerFetchInput, init?: RequestInit) => Promise<Response> {
  const send = lazy(() => bearerFetchModule().then(({ bearerFetch }) => bearerFetch(options)))
  return async (input, init) => (await send())(input, init)
}
