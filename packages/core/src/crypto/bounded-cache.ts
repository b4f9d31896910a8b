import { bytesEqual } from './bytes.js'

/**
 * A small least-recently-used map with a fixed number of entries, for the crypto backends'
 * caches (parsed certificates and CRLs, imported public keys).
 *
 * UDAP validates the same certificate chain (and the same issuer keys) on every discovery,
 * registration and token request, so parsed certificates and public keys are worth keeping;
 * the bound keeps a long-running process that sees many different chains from growing without
 * limit.
 *
 * @internal
 */
export class BoundedCache<Value> {
  // A Map iterates in insertion order, so re-inserting on every hit keeps the least recently
  // used entry first and eviction is O(1).
  readonly #entries = new Map<string, Value>()
  readonly #capacity: number

  /** @param capacity - the most entries kept. */
  constructor(capacity: number) {
    this.#capacity = capacity
  }

  /** The value stored under `key`, marking it as the most recently used; `undefined` if absent. */
  get(key: string): Value | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  /** Stores `value` under `key`, evicting the least recently used entry when full. */
  set(key: string, value: Value): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next()
      if (oldest.done !== true) this.#entries.delete(oldest.value)
    }
  }

  /** The number of entries currently held. */
  get size(): number {
    return this.#entries.size
  }
}

/**
 * Parses `der` once and reuses the result for the same bytes (certificates and CRLs: both
 * backends parse them with core's X.509 code).
 *
 * Entries are keyed by a fast non-cryptographic digest of the DER (synchronous on every
 * runtime, unlike WebCrypto's), and a hit is only used when the cached object's own `der`
 * equals the input byte for byte: two inputs with the same digest simply parse again, and a
 * caller that mutated a returned `der` array gets a fresh parse instead of a poisoned result.
 *
 * @internal
 */
export function parseWithCache<Parsed extends { readonly der: Uint8Array }>(
  der: Uint8Array,
  cache: BoundedCache<Parsed>,
  parse: (der: Uint8Array) => Parsed,
): Parsed {
  const cacheKey = bytesCacheKey(der)
  const cached = cache.get(cacheKey)
  if (cached !== undefined && bytesEqual(cached.der, der)) return cached
  // A private copy: later changes to the caller's array must not alter the cached result.
  const parsed = parse(der.slice())
  cache.set(cacheKey, parsed)
  return parsed
}

/**
 * A short cache key for some bytes: their length and 32-bit FNV-1a hash, about as fast as a
 * native SHA-256 in Node and synchronous everywhere. Not collision-resistant: a cache keyed by
 * it must compare the bytes on a hit (as {@link parseWithCache} does).
 *
 * @internal
 */
export function bytesCacheKey(bytes: Uint8Array): string {
  let hash = 0x811c9dc5
  // An indexed loop: `for…of` over a typed array is several times slower here.
  for (let index = 0; index < bytes.length; index++) {
    hash = Math.imul(hash ^ (bytes[index] as number), 0x01000193)
  }
  return `${bytes.length}:${hash >>> 0}`
}
