import { createHash } from 'node:crypto'
import type { BoundedCache } from './bounded-cache.js'

/**
 * Parses `der` once and reuses the result for the same bytes.
 *
 * Entries are keyed by the SHA-256 of the DER, and a hit is only used when the cached object's
 * own `der` still equals the input byte for byte: a caller that mutated a returned `der` array
 * gets a fresh parse instead of a poisoned result.
 *
 * @internal
 */
export function parseWithCache<Parsed extends { readonly der: Uint8Array }>(
  der: Uint8Array,
  cache: BoundedCache<Parsed>,
  parse: (der: Uint8Array) => Parsed,
): Parsed {
  const cacheKey = createHash('sha256').update(der).digest('base64')
  const cached = cache.get(cacheKey)
  if (cached !== undefined && Buffer.compare(cached.der, der) === 0) return cached
  // A private copy: later changes to the caller's array must not alter the cached result.
  const parsed = parse(der.slice())
  cache.set(cacheKey, parsed)
  return parsed
}
