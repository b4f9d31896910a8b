import { DiscoveryError } from '../errors/discovery-error.js'
import { abortedByCaller, raceSignal } from './caller-signal.js'

// A file apart from `raceSignal`: only the discovery code (loaded with a client's first
// operation) races a discovery, while sessions race their refresh up front (ADR 0012).

/**
 * Lets one caller stop waiting for a request other callers share (a discovery in flight),
 * without cancelling it for them: the shared request runs under the client's timeout only,
 * and each caller races it against its own `AbortSignal`.
 *
 * `start` returns the shared request, starting it when none is in flight. A signal that is
 * already aborted rejects at once and `start` is not called, so nothing is sent. The shared
 * promise always gets a handler here, so a caller that stopped waiting never leaves it to fail
 * unobserved (an `unhandledRejection`, which ends a Node process by default).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/errors-and-logging.md#cancellation
 * @internal
 */
export function raceCallerSignal<T>(
  start: () => Promise<T>,
  signal: AbortSignal | undefined,
  endpoint: string,
): Promise<T> {
  return raceSignal(
    start,
    signal,
    () =>
      new DiscoveryError(
        { endpoint, message: `discovery from ${endpoint} was aborted by the caller` },
        { cause: abortedByCaller(endpoint) },
      ),
  )
}
