/**
 * Where fhir-auth keeps what must outlive one call: a launch between the redirect and the
 * callback (keyed by `state`), and backend access tokens shared by the processes of a fleet.
 *
 * Every method is async and every value is a string (the library serializes its records).
 * Keys written by the library start with `fhir-auth:`. A store may drop an entry early (it is a
 * cache); it must not return one after its time to live. The library checks the expiry kept
 * inside its records with its own clock as well, so a store's clock only collects garbage.
 *
 * Implementations: {@link memoryStore} (one process), {@link webStorageStore} (a browser tab's
 * `sessionStorage`), {@link indexedDbStore} (the tabs of a browser), `redisStore` from
 * `@fhir-auth/store-redis` (a fleet). Anything with these five methods fits: a session
 * database, Memcached, a KV service.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12 RFC 6749 §10.12 (state binds the callback)
 */
export interface KeyValueStore {
  /** The value, or `undefined`/`null` when there is none or it has expired. */
  get(key: string): Promise<string | null | undefined>
  /**
   * Stores `value` for `ttlSeconds` (a positive number; fractions allowed). A time to live that
   * is zero or less stores nothing and removes an earlier value.
   */
  set(key: string, value: string, ttlSeconds: number): Promise<void>
  /** Removes the key; removing an absent key is not an error. */
  delete(key: string): Promise<void>
  /**
   * Stores `value` only when the key holds no live value, atomically: of several concurrent
   * callers (in any process sharing the store) exactly one gets `true`.
   */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>
  /**
   * Optional atomic read-and-delete: of several concurrent callers at most one gets the value.
   * Without it the library reads, then deletes (fine in one process; a shared store should
   * offer `take` so a replayed callback cannot race the first one).
   */
  take?(key: string): Promise<string | null | undefined>
}

/** The prefix of every key the library writes. */
export const storeKeyPrefix = 'fhir-auth:'

/**
 * A store key: `fhir-auth:<kind>:<id>`. `id` must already be free of secrets (a hash, never a
 * raw `state` or token).
 *
 * @internal
 */
export function storeKey(kind: string, id: string): string {
  return `${storeKeyPrefix}${kind}:${id}`
}
