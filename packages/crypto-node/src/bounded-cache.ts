/**
 * A small least-recently-used map with a fixed number of entries.
 *
 * UDAP validates the same certificate chain (and the same issuer keys) on every discovery,
 * registration and token request, so parsed certificates and public keys are worth keeping;
 * the bound keeps a long-running process that sees many different chains from growing without
 * limit.
 *
 * @internal
 */
export interface BoundedCache<Value> {
  /** The value stored under `key`, marking it as the most recently used; `undefined` if absent. */
  get(key: string): Value | undefined
  /** Stores `value` under `key`, evicting the least recently used entry when full. */
  set(key: string, value: Value): void
  /** The number of entries currently held. */
  readonly size: number
}

/**
 * Creates a {@link BoundedCache} holding at most `capacity` entries.
 *
 * @internal
 */
export function createBoundedCache<Value>(capacity: number): BoundedCache<Value> {
  // A Map iterates in insertion order, so re-inserting on every hit keeps the least recently
  // used entry first and eviction is O(1).
  const entries = new Map<string, Value>()
  return {
    get(key) {
      const value = entries.get(key)
      if (value === undefined) return undefined
      entries.delete(key)
      entries.set(key, value)
      return value
    },
    set(key, value) {
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > capacity) {
        const oldest = entries.keys().next()
        if (oldest.done !== true) entries.delete(oldest.value)
      }
    },
    get size() {
      return entries.size
    },
  }
}
