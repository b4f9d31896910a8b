import { StoreError, type StoreOperation } from '../../errors/store-error.js'
import type { KeyValueStore } from '../../stores/key-value-store.js'
import { timeLimited } from '../../time/time-limited.js'

/**
 * `store` with every call bounded by `timeoutMs` (the transport's time limit): a revocation cache
 * that never answers (a Redis behind a partition) becomes a `StoreError` the path policy reads as
 * no answer from that source, instead of a validation, and every caller that shares it, waiting
 * forever. What the store later does with the call is observed, never an unhandled rejection.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.3
 */
export function timeLimitedStore(store: KeyValueStore, timeoutMs: number): KeyValueStore {
  const bounded =
    <A extends unknown[], R>(operation: StoreOperation, call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      timeLimited(
        () => call(...args),
        timeoutMs,
        () =>
          new StoreError(
            operation,
            `the revocation cache did not answer ${operation} within ${timeoutMs} ms`,
          ),
      )
  return {
    get: bounded('get', (key: string) => store.get(key)),
    set: bounded('set', (key: string, value: string, ttl: number) => store.set(key, value, ttl)),
    delete: bounded('delete', (key: string) => store.delete(key)),
    setIfAbsent: bounded('setIfAbsent', (key: string, value: string, ttl: number) =>
      store.setIfAbsent(key, value, ttl),
    ),
  }
}
