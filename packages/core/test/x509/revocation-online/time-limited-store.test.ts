/**
 * `timeLimitedStore`: each call of a revocation cache is bounded by the transport's time limit,
 * so a store that never answers (a Redis behind a partition) is a `StoreError` naming the
 * operation, and a store that answers is passed through unchanged, arguments and results.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { StoreError, type StoreOperation } from '../../../src/errors/store-error.js'
import type { KeyValueStore } from '../../../src/stores/key-value-store.js'
import { timeLimitedStore } from '../../../src/x509/revocation-online/time-limited-store.js'

afterEach(() => {
  vi.useRealTimers()
})

const operations: readonly StoreOperation[] = ['get', 'set', 'delete', 'setIfAbsent']

/** Calls `operation` of `store` with arguments of the right shape. */
function call(store: KeyValueStore, operation: StoreOperation): Promise<unknown> {
  switch (operation) {
    case 'get':
      return store.get('k')
    case 'set':
      return store.set('k', 'v', 60)
    case 'delete':
      return store.delete('k')
    default:
      return store.setIfAbsent('k', 'v', 60)
  }
}

describe('timeLimitedStore', () => {
  it.each(operations)(
    '%s of a store that never answers is a StoreError naming it, after the limit',
    async (operation) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      const never = () => new Promise<never>(() => {})
      const store = timeLimitedStore(
        { get: never, set: never, delete: never, setIfAbsent: never },
        1_500,
      )
      let settled: unknown = 'pending'
      const pending = call(store, operation).then(
        (value) => {
          settled = { value }
        },
        (error: unknown) => {
          settled = error
        },
      )
      await vi.advanceTimersByTimeAsync(1_499)
      expect(settled).toBe('pending')
      await vi.advanceTimersByTimeAsync(1)
      await pending
      expect(StoreError.isInstance(settled)).toBe(true)
      const error = settled as StoreError
      expect(error.operation).toBe(operation)
      expect(error.message).toBe(`the revocation cache did not answer ${operation} within 1500 ms`)
    },
  )

  it('passes each call, with its arguments, to the store and gives back what it answers', async () => {
    const calls: unknown[][] = []
    const store = timeLimitedStore(
      {
        get: async (...args) => {
          calls.push(['get', ...args])
          return 'kept'
        },
        set: async (...args) => {
          calls.push(['set', ...args])
        },
        delete: async (...args) => {
          calls.push(['delete', ...args])
        },
        setIfAbsent: async (...args) => {
          calls.push(['setIfAbsent', ...args])
          return true
        },
      },
      1_000,
    )
    expect(await store.get('a')).toBe('kept')
    expect(await store.set('b', 'v', 30)).toBeUndefined()
    expect(await store.delete('c')).toBeUndefined()
    expect(await store.setIfAbsent('d', 'w', 40)).toBe(true)
    expect(calls).toEqual([
      ['get', 'a'],
      ['set', 'b', 'v', 30],
      ['delete', 'c'],
      ['setIfAbsent', 'd', 'w', 40],
    ])
  })

  it('passes a failure of the store through as it is', async () => {
    const failure = new StoreError('get', 'the store failed get')
    const store = timeLimitedStore(
      {
        get: () => Promise.reject(failure),
        set: async () => {},
        delete: async () => {},
        setIfAbsent: async () => true,
      },
      1_000,
    )
    await expect(store.get('k')).rejects.toBe(failure)
  })
})
