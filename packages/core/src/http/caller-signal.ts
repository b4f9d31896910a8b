import { HttpError } from '../errors/http-error.js'

/**
 * Lets one caller stop waiting for work other callers share (a discovery, a refresh, a key set,
 * a store call) without cancelling it for them: a signal that is already aborted rejects at once
 * and `start` is not called; otherwise the shared promise races the caller's signal, and `aborted`
 * makes the error the caller gets when its signal fires first. The shared promise always gets a
 * handler here, so a caller that stopped waiting never leaves it to fail unobserved (an
 * `unhandledRejection`, which ends a Node process by default).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/errors-and-logging.md#cancellation
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
