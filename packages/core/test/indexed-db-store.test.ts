/**
 * `indexedDbStore()`: the store contract on the real IndexedDB in the `chromium` project (Node
 * and edge runtimes have none: there, the refusal when none is given), and a refusing IndexedDB
 * as a `StoreError` in every runtime. Its atomicity across tabs is tested with two Chromium tabs
 * in internal/integration-tests/test/browser-tabs.
 */
import { keyValueStoreContract } from '@fhir-auth/store-contract'
import { describe, expect, it } from 'vitest'
import { ConfigurationError, indexedDbStore, StoreError } from '../src/index.js'

const realIndexedDb = (globalThis as { indexedDB?: IDBFactory }).indexedDB

/** A clock tests move by hand. */
function manualClock() {
  let time = Date.UTC(2026, 10, 24, 12)
  return {
    now: () => new Date(time),
    async elapse(seconds: number) {
      time += seconds * 1000
    },
  }
}

let databases = 0
if (realIndexedDb !== undefined) {
  keyValueStoreContract('indexedDbStore', () => {
    const clock = manualClock()
    databases += 1
    const databaseName = `fhir-auth-contract-${Date.now()}-${databases}`
    return { store: indexedDbStore({ databaseName, now: clock.now }), elapse: clock.elapse }
  })
}

/** An IndexedDB that refuses to open any database, the way a browser with storage disabled does. */
function refusingIndexedDb(name: string): IDBFactory {
  const refusal = Object.assign(new Error('refused while opening secret-token-value'), { name })
  return {
    open() {
      const request: { error?: Error; onerror?: () => void } = {}
      setTimeout(() => {
        request.error = refusal
        request.onerror?.()
      }, 0)
      return request
    },
  } as unknown as IDBFactory
}

describe('indexedDbStore', () => {
  // One test for both kinds of runtime, so that no runtime reports a skipped test.
  it('uses the runtime IndexedDB, or says there is none', async () => {
    if (realIndexedDb === undefined) {
      expect(() => indexedDbStore()).toThrow(ConfigurationError)
      expect(() => indexedDbStore()).toThrow(/needs IndexedDB/)
      return
    }
    const store = indexedDbStore({ databaseName: `fhir-auth-default-${Date.now()}` })
    await store.set('fhir-auth:k', 'v', 60)
    expect(await store.get('fhir-auth:k')).toBe('v')
  })

  it('turns an IndexedDB that refuses into a StoreError naming the operation, not the value', async () => {
    const store = indexedDbStore({ indexedDB: refusingIndexedDb('SecurityError') })
    const failure = store.setIfAbsent('fhir-auth:k', 'secret-token-value', 60)
    await expect(failure).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof StoreError &&
        error.operation === 'setIfAbsent' &&
        error.message === 'IndexedDB refused setIfAbsent (SecurityError)' &&
        error.cause === undefined,
    )
    // Not kept: the next operation tries to open the database again.
    await expect(store.get('fhir-auth:k')).rejects.toThrow('IndexedDB refused get (SecurityError)')
  })

  it('refuses a database name that is not a non-empty string', () => {
    for (const databaseName of ['', 42]) {
      expect(() =>
        indexedDbStore({ databaseName, indexedDB: refusingIndexedDb('x') } as never),
      ).toThrow(ConfigurationError)
    }
  })
})
