/**
 * Runs code the application supplies (a store method, an `onTokens` listener) with a time
 * limit, so a store that never answers cannot hang a launch or every caller of a session: after
 * `timeoutMs` the result is the error `timedOut` makes. A synchronous throw becomes a rejection.
 * The call itself cannot be stopped; if it fails later, that failure is observed here (never an
 * `unhandledRejection`). The timer does not keep a Node process alive.
 *
 * @internal
 */
export function timeLimited<T>(
  call: () => T | PromiseLike<T>,
  timeoutMs: number,
  timedOut: () => Error,
): Promise<T> {
  let running: Promise<T>
  try {
    running = Promise.resolve(call())
  } catch (error) {
    return Promise.reject(error)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(timedOut()), timeoutMs)
    ;(timer as { unref?: () => void }).unref?.()
  })
  running.catch(() => {})
  return Promise.race([running, limit]).finally(() => clearTimeout(timer))
}
