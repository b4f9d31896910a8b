import { DiscoveryError, HttpError } from '@fhir-auth/core'

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
 * @see docs/guides/errors-and-logging.md#cancellation in the fhir-auth repository
 * @internal
 */
export function raceCallerSignal<T>(
  start: () => Promise<T>,
  signal: AbortSignal | undefined,
  endpoint: string,
): Promise<T> {
  const aborted = () =>
    new DiscoveryError(
      { endpoint, message: `discovery from ${endpoint} was aborted by the caller` },
      {
        cause: new HttpError({
          reason: 'aborted',
          url: endpoint,
          message: 'aborted by the caller',
        }),
      },
    )
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
