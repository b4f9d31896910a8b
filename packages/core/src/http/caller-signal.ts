import { DiscoveryError } from '../errors/discovery-error.js'
import { HttpError } from '../errors/http-error.js'

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

/**
 * {@link raceCallerSignal} for any shared work (a refresh, a key set, a store call): `aborted`
 * makes the error the caller gets when its signal fires first.
 *
 * @internal
 */
export function raceSignal<T>(
  start: () => Promise<T>,
  signal: AbortSignal | undefined,
  aborted: () => Error,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(aborted())
  const shared = start()
  if (signal === undefined) return shared
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted())
    signal.addEventListener('abort', onAbort, { once: true })
    shared.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/**
 * The `HttpError` (reason `aborted`) every caller-side abort carries as its cause, so one check
 * of `cause.reason` finds it whatever the operation.
 *
 * @internal
 */
export function abortedByCaller(url: string): HttpError {
  return new HttpError({ reason: 'aborted', url, message: 'aborted by the caller' })
}
