import type { KeyValueStore } from '../../stores/key-value-store.js'

/**
 * A small {@link KeyValueStore} in this process's memory for fetched revocation information
 * (CRLs and OCSP answers until their `nextUpdate`, `caIssuers` certificates): the default of {@link createOnlineRevocation} and of a
 * `Client` without `revocation.cache`. At most `maxEntries`; when full, the oldest goes. Apart
 * from `memoryStore` so that the browser code loaded up front does not carry a store no app
 * asked for.
 */
export function revocationMemory(maxEntries = 256): KeyValueStore {
  const entries = new Map<string, { readonly value: string; readonly expiresAt: number }>()
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry !== undefined && entry.expiresAt <= Date.now()) entries.delete(key)
    return entries.get(key)
  }
  const set = async (key: string, value: string, ttlSeconds: number) => {
    entries.delete(key)
    if (!(ttlSeconds > 0)) return
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
    entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 })
  }
  return {
    get: async (key) => live(key)?.value,
    set,
    delete: async (key) => void entries.delete(key),
    setIfAbsent: async (key, value, ttlSeconds) => {
      if (live(key) !== undefined) return false
      await set(key, value, ttlSeconds)
      return true
    },
  }
}
