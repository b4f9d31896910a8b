import { DiscoveryError, HttpError } from '@fhir-auth/core'

/**
 * Lets one caller stop waiting for a request other callers share (a discovery in flight),
 * without cancelling it for them: the shared request runs under the client's timeout only,
 * and each caller races it against its own `AbortSignal`.
 *
 * @internal
 */
export function raceCallerSignal<T>(
  shared: Promise<T>,
  signal: AbortSignal | undefined,
  endpoint: string,
): Promise<T> {
  if (signal === undefined) return shared
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
  if (signal.aborted) return Promise.reject(aborted())
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
