/**
 * One request's time budget: the library timeout combined with the caller's `AbortSignal`.
 *
 * `race` rejects as soon as either fires, so every await of a request can be raced against it —
 * a custom `fetch` that ignores its signal, or a body stream that never ends, still gives up.
 */
export interface Deadline {
  readonly signal: AbortSignal
  /** Which one fired, if any. */
  readonly reason: 'timeout' | 'aborted' | undefined
  /** Races a promise against the deadline: rejects when the timeout or the caller's signal fires. */
  race<T>(promise: Promise<T>): Promise<T>
  dispose(): void
}

/** Starts a deadline of `timeoutMs` that also ends when `callerSignal` aborts. */
export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const controller = new AbortController()
  let reason: 'timeout' | 'aborted' | undefined
  let reject: (error: Error) => void = () => {}
  const expired = new Promise<never>((_, rejectExpired) => {
    reject = rejectExpired
  })
  // Nobody may be awaiting `expired` when it fires; that must not be an unhandled rejection.
  expired.catch(() => {})
  const end = (why: 'timeout' | 'aborted') => {
    if (reason !== undefined) return
    reason = why
    controller.abort()
    reject(new Error(why))
  }
  const timer = setTimeout(() => end('timeout'), timeoutMs)
  const onAbort = () => end('aborted')
  if (callerSignal?.aborted) onAbort()
  else callerSignal?.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    get reason() {
      return reason
    },
    race: <T>(promise: Promise<T>) => Promise.race([promise, expired]),
    dispose() {
      clearTimeout(timer)
      callerSignal?.removeEventListener('abort', onAbort)
    },
  }
}
