import type { KeyValueStore } from '@fhir-auth/core/essentials'
import { ConfigurationError } from '@fhir-auth/core/internal/up-front'

/**
 * A store when given, checked for the methods the library uses.
 *
 * @throws ConfigurationError on `store`.
 * @internal
 */
export function optionalStore(value: unknown): KeyValueStore | undefined {
  if (value === undefined || value === null) return undefined
  if (isKeyValueStore(value)) return value
  throw new ConfigurationError({
    invalidAttribute: 'store',
    invalidValue: typeof value,
    message:
      'store must be a KeyValueStore (get, set, delete, setIfAbsent, and take if any): memoryStore(), webStorageStore(), redisStore()…',
  })
}

function isKeyValueStore(value: unknown): value is KeyValueStore {
  try {
    const store = value as Partial<Record<keyof KeyValueStore, unknown>>
    return (
      typeof value === 'object' &&
      typeof store.get === 'function' &&
      typeof store.set === 'function' &&
      typeof store.delete === 'function' &&
      typeof store.setIfAbsent === 'function' &&
      (store.take === undefined || typeof store.take === 'function')
    )
  } catch {
    // A throwing getter or Proxy trap: not a store this library can rely on.
    return false
  }
}
