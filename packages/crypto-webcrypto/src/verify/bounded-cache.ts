/**
 * A small least-recently-used map. Verification keys are cached per public key so a chain or a
 * series of JWS checks imports each key once, and the bound keeps a long-running process from
 * growing without limit when it sees many certificates.
 */
export class BoundedCache<Value> {
  readonly #entries = new Map<string, Value>()
  readonly #capacity: number

  /** @param capacity - the most entries kept. */
  constructor(capacity: number) {
    this.#capacity = capacity
  }

  /** The value for `key`, marking it as the most recently used. */
  get(key: string): Value | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      // Re-inserting moves the entry to the end: Map iteration order is insertion order.
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  /** Stores a value, evicting the least recently used entries beyond the capacity. */
  set(key: string, value: Value): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next()
      if (oldest.done === true) break
      this.#entries.delete(oldest.value)
    }
  }

  /** How many entries are stored. */
  get size(): number {
    return this.#entries.size
  }
}
