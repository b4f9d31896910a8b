import { ConfigurationError } from '../errors/configuration-error.js'
import type { KeyValueStore } from './key-value-store.js'
import { checkStoreKey, checkStoreWrite } from './store-arguments.js'

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** The clock that ends entries; defaults to the system clock (tests inject one). */
  readonly now?: () => Date
  /**
   * The most entries kept; when full, expired entries go first, then the oldest. Default
   * 10,000: a store of launches and tokens should not grow without bound under a flood of
   * abandoned authorizations.
   */
  readonly maxEntries?: number
}

interface Entry {
  readonly value: string
  readonly expiresAt: number
}

/**
 * A {@link KeyValueStore} in this process's memory: the default for one server process, and for
 * tests. Nothing is shared with other processes, nothing survives a restart, and no timer is
 * left running (expired entries are dropped when met or when the store is full).
 *
 * @example
 * ```ts
 * const store = memoryStore()
 * const { authUrl } = await client.beginAuthorization({ store })
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): Required<KeyValueStore> {
  const now = options.now ?? (() => new Date())
  const maxEntries = options.maxEntries ?? 10_000
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new ConfigurationError({
      invalidAttribute: 'maxEntries',
      invalidValue: maxEntries,
      message: 'maxEntries must be a positive integer',
    })
  }
  const entries = new Map<string, Entry>()

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt > now().getTime()) return entry
    entries.delete(key)
    return undefined
  }

  const put = (key: string, value: string, ttlSeconds: number): void => {
    entries.delete(key)
    if (ttlSeconds <= 0) return
    if (entries.size >= maxEntries) makeRoom()
    entries.set(key, { value, expiresAt: now().getTime() + ttlSeconds * 1000 })
  }

  // A Map iterates in insertion order and `put` re-inserts, so the first live entry is the oldest.
  const makeRoom = (): void => {
    const time = now().getTime()
    for (const [key, entry] of entries) if (entry.expiresAt <= time) entries.delete(key)
    const oldest = entries.keys().next()
    if (entries.size >= maxEntries && !oldest.done) entries.delete(oldest.value)
  }

  return Object.freeze({
    async get(key: string) {
      checkStoreKey(key)
      return live(key)?.value
    },
    async set(key: string, value: string, ttlSeconds: number) {
      checkStoreWrite(key, value, ttlSeconds)
      put(key, value, ttlSeconds)
    },
    async delete(key: string) {
      checkStoreKey(key)
      entries.delete(key)
    },
    async setIfAbsent(key: string, value: string, ttlSeconds: number) {
      checkStoreWrite(key, value, ttlSeconds)
      if (live(key) !== undefined) return false
      put(key, value, ttlSeconds)
      return ttlSeconds > 0
    },
    async take(key: string) {
      checkStoreKey(key)
      const entry = live(key)
      entries.delete(key)
      return entry?.value
    },
  })
}
