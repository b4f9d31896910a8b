/**
 * A Map that forgets its oldest entry beyond `limit` entries, so caches keyed by data a client
 * sends (certificates) cannot grow without bound.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #limit: number

  constructor(limit: number) {
    this.#limit = limit
  }

  /** The value stored under `key`, if it is still remembered. */
  get(key: K): V | undefined {
    return this.#entries.get(key)
  }

  /** Stores `value` as the newest entry, dropping the oldest one beyond the limit. */
  set(key: K, value: V): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.#limit) {
      const oldest = this.#entries.keys().next()
      if (oldest.done !== true) this.#entries.delete(oldest.value)
    }
  }
}
