/**
 * Waits for an operation whose code may still be loading on demand (a chunk a browser is
 * fetching over a slow network, or one that never arrives), until the caller's `signal` ends the
 * wait: the caller is then rejected with `aborted()`, promptly, whatever the load does.
 *
 * The abort is answered by the operation itself when it can: work that is not stuck on a load
 * stops in the task the signal fires in (its requests, store calls and shared waits race the same
 * signal) with the error that names the step it stopped, so `aborted()` is used only when `work`
 * has not settled by the end of that task — one timer turn later. A signal aborted before the
 * call is treated the same way: code that has loaded still answers first, and nothing is sent.
 *
 * `work` always gets a handler here: when it later finishes or fails, after the caller stopped
 * waiting, that is never an unhandled rejection. It goes on in the background, and the next call
 * finds its code loaded; any request it reaches refuses the aborted signal before sending.
 *
 * @param aborted - makes the caller's error, with the cause every caller-side abort carries.
 * @see https://dom.spec.whatwg.org/#abortsignal-abort-algorithms DOM: AbortSignal
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0012-browser-bytes-by-load-time.md
 * @internal
 */
export function waitUnlessAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  aborted: () => Error,
): Promise<T> {
  if (signal === undefined) return work
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const onAbort = () => {
      timer = setTimeout(() => reject(aborted()), 0)
    }
    const settle = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        settle()
        resolve(value)
      },
      (error: unknown) => {
        settle()
        reject(error)
      },
    )
  })
}
