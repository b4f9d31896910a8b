import { ConfigurationError, type KeyValueStore } from '@fhir-auth/core'

/**
 * A store when given, checked for the methods the library uses.
 *
 * @throws ConfigurationError on `store`.
 * @internal
 */
export function optionalStore(value: unknown): KeyValueStore | undefined {
  if (value === undefined || value === null) return undefined
  const store = value as Partial<Record<keyof KeyValueStore, unknown>>
  if (
    typeof value === 'object' &&
    typeof store.get === 'function' &&
    typeof store.set === 'function' &&
    typeof store.delete === 'function' &&
    typeof store.setIfAbsent === 'function'
  ) {
    return value as KeyValueStore
  }
  throw new ConfigurationError({
    invalidAttribute: 'store',
    invalidValue: typeof value,
    message:
      'store must be a KeyValueStore (get, set, delete, setIfAbsent): memoryStore(), webStorageStore(), redisStore()…',
  })
}
