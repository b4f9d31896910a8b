/**
 * The behaviour every `KeyValueStore` must have, as one suite each implementation runs:
 * `memoryStore`, `webStorageStore` (Node and Chromium) and `redisStore` on a real Redis.
 * The library's launch records and the fleet's token lock rely on exactly these properties.
 */
import { describe, expect, it } from 'vitest'

/**
 * The store interface, described here structurally (the same shape as `KeyValueStore` in
 * `@fhir-auth/core`) so that core can run this suite without a dependency cycle.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | null | undefined>
  set(key: string, value: string, ttlSeconds: number): Promise<void>
  delete(key: string): Promise<void>
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>
  take?(key: string): Promise<string | null | undefined>
}

/** A `ConfigurationError` naming `attribute`, recognised by its stable code. */
function isConfigurationErrorOn(error: unknown, attribute: string): boolean {
  const fields = error as { code?: unknown; invalidAttribute?: unknown } | null
  return (
    error instanceof Error &&
    fields?.code === 'ERR_CONFIGURATION' &&
    fields.invalidAttribute === attribute
  )
}

/** A store to test and a way to let time pass for it. */
export interface StoreUnderTest {
  readonly store: KeyValueStore
  /** Lets `seconds` pass for the store: an injected clock moves, or real time is waited. */
  elapse(seconds: number): Promise<void>
}

let counter = 0
/** A key no other test of the run uses (a shared Redis sees every test's keys). */
function freshKey(label: string): string {
  counter += 1
  return `fhir-auth:contract:${label}:${Date.now().toString(36)}:${counter}`
}

/**
 * Registers the contract for one implementation. `make` is called per test; `ttlUnit` is the
 * smallest time to live the store honours exactly (Redis `EX` counts whole seconds).
 */
export function keyValueStoreContract(
  name: string,
  make: () => StoreUnderTest | Promise<StoreUnderTest>,
  ttlUnit = 1,
): void {
  describe(`KeyValueStore contract: ${name}`, () => {
    it('returns nothing for a key never written', async () => {
      const { store } = await make()
      expect(await store.get(freshKey('absent'))).toBeUndefined()
    })

    it('returns what was set, and the latest value after an overwrite', async () => {
      const { store } = await make()
      const key = freshKey('roundtrip')
      await store.set(key, 'first', 60)
      expect(await store.get(key)).toBe('first')
      await store.set(key, 'second', 60)
      expect(await store.get(key)).toBe('second')
    })

    it('keeps any string exactly: empty, unicode, JSON, 100 KB', async () => {
      const { store } = await make()
      const values = ['', 'ü€😀\u0000', '{"a":[1,"b"]}', 'x'.repeat(100_000)]
      for (const value of values) {
        const key = freshKey('values')
        await store.set(key, value, 60)
        expect(await store.get(key)).toBe(value)
      }
    })

    it('deletes, and deleting an absent key is not an error', async () => {
      const { store } = await make()
      const key = freshKey('delete')
      await store.set(key, 'v', 60)
      await store.delete(key)
      expect(await store.get(key)).toBeUndefined()
      await expect(store.delete(freshKey('never'))).resolves.toBeUndefined()
    })

    it('forgets a value once its time to live has passed, not before', async () => {
      const { store, elapse } = await make()
      const key = freshKey('ttl')
      await store.set(key, 'v', 2 * ttlUnit)
      await elapse(ttlUnit)
      expect(await store.get(key)).toBe('v')
      await elapse(ttlUnit + 0.2)
      expect(await store.get(key)).toBeUndefined()
    })

    it('stores nothing for a time to live of zero or less, and drops the earlier value', async () => {
      const { store } = await make()
      const key = freshKey('zero')
      await store.set(key, 'v', 60)
      await store.set(key, 'w', 0)
      expect(await store.get(key)).toBeUndefined()
      await store.set(key, 'x', -5)
      expect(await store.get(key)).toBeUndefined()
      expect(await store.setIfAbsent(key, 'y', 0)).toBe(false)
      expect(await store.get(key)).toBeUndefined()
    })

    it('setIfAbsent: true once, false while the value lives, true again after it expired', async () => {
      const { store, elapse } = await make()
      const key = freshKey('nx')
      expect(await store.setIfAbsent(key, 'a', ttlUnit)).toBe(true)
      expect(await store.setIfAbsent(key, 'b', ttlUnit)).toBe(false)
      expect(await store.get(key)).toBe('a')
      await elapse(ttlUnit + 0.2)
      expect(await store.setIfAbsent(key, 'c', ttlUnit)).toBe(true)
      expect(await store.get(key)).toBe('c')
    })

    it('setIfAbsent: exactly one of 50 concurrent callers wins', async () => {
      const { store } = await make()
      const key = freshKey('race')
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.setIfAbsent(key, `v${i}`, 60)),
      )
      expect(results.filter(Boolean)).toHaveLength(1)
      expect(await store.get(key)).toBe(`v${results.indexOf(true)}`)
    })

    it('take returns the value once; of 20 concurrent takes one gets it', async () => {
      const { store } = await make()
      expect(typeof store.take).toBe('function')
      const take = (key: string) => (store.take as NonNullable<KeyValueStore['take']>)(key)
      const key = freshKey('take')
      await store.set(key, 'once', 60)
      expect(await take(key)).toBe('once')
      expect(await take(key)).toBeUndefined()
      const raced = freshKey('take-race')
      await store.set(raced, 'prize', 60)
      const results = await Promise.all(Array.from({ length: 20 }, () => take(raced)))
      expect(results.filter((value) => value === 'prize')).toHaveLength(1)
    })

    it('keeps keys apart, whatever characters they hold', async () => {
      const { store } = await make()
      const base = freshKey('chars')
      const keys = [`${base}:a/b`, `${base}:a+b=`, `${base}:ä b`, `${base}:*`]
      for (const [i, key] of keys.entries()) await store.set(key, `v${i}`, 60)
      for (const [i, key] of keys.entries()) expect(await store.get(key)).toBe(`v${i}`)
    })

    it('refuses arguments of the wrong type with a ConfigurationError naming the argument', async () => {
      const { store } = await make()
      const loose = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
      const key = freshKey('args')
      const attempts: [string, unknown[], string][] = [
        ['get', [42], 'key'],
        ['get', [''], 'key'],
        ['set', [key, 42, 60], 'value'],
        ['set', [key, null, 60], 'value'],
        ['set', [key, 'v', Number.NaN], 'ttlSeconds'],
        ['set', [key, 'v', '60'], 'ttlSeconds'],
        ['setIfAbsent', [key, {}, 60], 'value'],
        ['delete', [undefined], 'key'],
      ]
      for (const [method, args, attribute] of attempts) {
        const call = (loose[method] as (...a: unknown[]) => Promise<unknown>).apply(store, args)
        await expect(call).rejects.toSatisfy((error: unknown) =>
          isConfigurationErrorOn(error, attribute),
        )
      }
    })
  })
}
