import { ConfigurationError } from '../errors/configuration-error.js'

/**
 * Checks a store key, the same way for every implementation: stores are also called directly
 * by applications, and a JavaScript caller can pass anything.
 *
 * @throws ConfigurationError on `key` unless it is a non-empty string.
 * @internal
 */
export function checkStoreKey(key: unknown): void {
  if (typeof key === 'string' && key !== '') return
  throw new ConfigurationError({
    invalidAttribute: 'key',
    invalidValue: typeof key === 'string' ? key : typeof key,
    message: 'a store key must be a non-empty string',
  })
}

/**
 * Checks what a store is asked to write. The value is never described beyond its type (it may
 * be a token).
 *
 * @throws ConfigurationError on `key`, on `value` (not a string) or on `ttlSeconds` (not a
 *   finite number).
 * @internal
 */
export function checkStoreWrite(key: unknown, value: unknown, ttlSeconds: unknown): void {
  checkStoreKey(key)
  if (typeof value !== 'string') {
    throw new ConfigurationError({
      invalidAttribute: 'value',
      invalidValue: value === null ? 'null' : typeof value,
      message: `a store value must be a string, not ${value === null ? 'null' : typeof value}`,
    })
  }
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds)) {
    throw new ConfigurationError({
      invalidAttribute: 'ttlSeconds',
      invalidValue: typeof ttlSeconds === 'number' ? ttlSeconds : typeof ttlSeconds,
      message: 'a store time to live must be a finite number of seconds',
    })
  }
}
