import {
  abortedByCaller,
  lazy,
  lazyImport,
  waitUnlessAborted,
} from '@fhir-auth/core/internal/checks'
import { HttpError } from '@fhir-auth/core/internal/up-front'
import type { BearerFetchInput, BearerFetchOptions } from './bearer-fetch.js'

// Loaded from the launch module, which re-exports it: a launch ends with the session's first
// request, so the two travel as one chunk (one gzip dictionary, one request) — see ADR 0012.
const bearerFetchModule = lazyImport(() => import('../launch/authorization-flow.js'))

/**
 * `bearerFetch` whose code loads with the first request: a session or a `backendTokens`
 * handle is made at once, and an app that never calls its `fetch` never downloads the URL rules
 * and the redirect and retry logic behind it. A chunk that fails to load is loaded again by the
 * next request. The caller's signal ends the wait for a chunk still loading (an `HttpError`
 * `aborted`, as for an aborted request), and nothing is sent.
 *
 * @internal
 */
export function onDemandBearerFetch(
  options: BearerFetchOptions,
): (input: BearerFetchInput, init?: RequestInit) => Promise<Response> {
  const send = lazy(() => bearerFetchModule().then(({ bearerFetch }) => bearerFetch(options)))
  return async (input, init) => {
    const loaded = waitUnlessAborted(
      send(),
      callerSignal(input, init),
      () =>
        new HttpError(
          { reason: 'aborted', url: '', message: 'fetch was aborted by the caller' },
          { cause: abortedByCaller('') },
        ),
    )
    return (await loaded)(input, init)
  }
}

/**
 * The caller's signal, for the wait alone: `bearerFetch` reads and checks `init` itself, so a
 * getter (or a Proxy's trap) is not run here, and anything that is not an `AbortSignal` is left
 * for it to refuse.
 */
function callerSignal(input: unknown, init: unknown): AbortSignal | undefined {
  let signal: unknown
  try {
    signal =
      Object.getOwnPropertyDescriptor(init ?? {}, 'signal')?.value ??
      (input as { signal?: unknown }).signal
  } catch {
    // A primitive init, or a Proxy whose trap throws: bearerFetch says what is wrong.
  }
  return signal instanceof AbortSignal ? signal : undefined
}
