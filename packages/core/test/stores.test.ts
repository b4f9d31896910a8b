import { keyValueStoreContract } from '@fhir-auth/store-contract'
import { describe, expect, it } from 'vitest'
import {
  ConfigurationError,
  memoryStore,
  StoreError,
  type WebStorageLike,
  webStorageStore,
} from '../src/index.js'

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

/** A Map behind the Web Storage API, for runtimes without `sessionStorage`. */
function mapStorage(): WebStorageLike & { readonly items: Map<string, string> } {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

const realSessionStorage = (globalThis as { sessionStorage?: WebStorageLike }).sessionStorage

keyValueStoreContract('memoryStore', () => {
  const clock = manualClock()
  return { store: memoryStore({ now: clock.now }), elapse: clock.elapse }
})

keyValueStoreContract(
  realSessionStorage ? 'webStorageStore(sessionStorage)' : 'webStorageStore(Map storage)',
  () => {
    const clock = manualClock()
    const storage = realSessionStorage ?? mapStorage()
    return { store: webStorageStore(storage, { now: clock.now }), elapse: clock.elapse }
  },
)

describe('memoryStore', () => {
  it('drops expired entries first, then the oldest, when full', async () => {
    const clock = manualClock()
    const store = memoryStore({ now: clock.now, maxEntries: 3 })
    await store.set('a', '1', 10)
    await store.set('b', '2', 100)
    await store.set('c', '3', 100)
    await clock.elapse(20)
    await store.set('d', '4', 100) // 'a' has expired: it makes room
    expect([await store.get('b'), await store.get('c'), await store.get('d')]).toEqual([
      '2',
      '3',
      '4',
    ])
    await store.set('e', '5', 100) // full of live entries: the oldest ('b') goes
    expect(await store.get('b')).toBeUndefined()
    expect(await store.get('e')).toBe('5')
  })

  it('refuses a maxEntries that is not a positive integer', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(() => memoryStore({ maxEntries })).toThrow(ConfigurationError)
    }
  })

  it('shows no value when printed or serialised', async () => {
    const store = memoryStore()
    await store.set('fhir-auth:launch:x', 'secret-token-value', 60)
    expect(JSON.stringify(store)).not.toContain('secret-token-value')
    expect(String(store)).not.toContain('secret-token-value')
  })
})

describe('webStorageStore', () => {
  it('writes under the key as given, with the value and its end, nothing else', async () => {
    const clock = manualClock()
    const storage = mapStorage()
    await webStorageStore(storage, { now: clock.now }).set('fhir-auth:k', 'v', 30)
    expect([...storage.items.keys()]).toEqual(['fhir-auth:k'])
    expect(JSON.parse(storage.items.get('fhir-auth:k') ?? '')).toEqual({
      v: 'v',
      e: clock.now().getTime() + 30_000,
    })
  })

  it('treats an entry it did not write (foreign or corrupted) as absent and removes it', async () => {
    const storage = mapStorage()
    const store = webStorageStore(storage)
    for (const foreign of ['not json', '{"v":1,"e":2}', 'null', '[]', '{"v":"x"}']) {
      storage.items.set('fhir-auth:k', foreign)
      expect(await store.get('fhir-auth:k')).toBeUndefined()
      expect(storage.items.has('fhir-auth:k')).toBe(false)
    }
  })

  it('turns a refusing storage (quota, disabled) into a StoreError without the value', async () => {
    const quota = Object.assign(new Error('quota exceeded while storing secret-token-value'), {
      name: 'QuotaExceededError',
    })
    const storage: WebStorageLike = {
      getItem: () => null,
      setItem: () => {
        throw quota
      },
      removeItem: () => {},
    }
    const failure = webStorageStore(storage).set('fhir-auth:k', 'secret-token-value', 60)
    await expect(failure).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof StoreError &&
        error.operation === 'set' &&
        error.message.includes('QuotaExceededError') &&
        !error.message.includes('secret-token-value') &&
        error.cause === undefined,
    )
  })

  it('refuses something that is not a Storage', () => {
    for (const storage of [42, {}, { getItem: () => null }, null]) {
      expect(() => webStorageStore(storage as unknown as WebStorageLike)).toThrow(
        ConfigurationError,
      )
    }
  })

  // One test for both kinds of runtime, so that no runtime reports a skipped test.
  it('uses sessionStorage by default, or says what to pass when the runtime has none', async () => {
    if (realSessionStorage === undefined) {
      expect(() => webStorageStore()).toThrow(/sessionStorage or localStorage/)
      return
    }
    await webStorageStore().set('fhir-auth:default-storage', 'v', 60)
    expect(realSessionStorage.getItem('fhir-auth:default-storage')).toContain('"v":"v"')
    realSessionStorage.removeItem('fhir-auth:default-storage')
  })
})
