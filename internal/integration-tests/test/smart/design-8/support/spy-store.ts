/**
 * A key-value store that records every call made on it, for the DESIGN §8 rules about what a
 * launch keeps (one record under a `fhir-auth:` key, for 600 s) and when it is gone.
 */
import { type KeyValueStore, memoryStore } from '@fhir-auth/client'

export interface StoreCall {
  readonly method: string
  readonly args: unknown[]
}

/** A store that records every call made on `inner` (a memoryStore by default). */
export function spyStore(inner: KeyValueStore = memoryStore()) {
  const calls: StoreCall[] = []
  const record =
    (method: keyof KeyValueStore) =>
    (...args: unknown[]) => {
      calls.push({ method, args })
      return (inner[method] as (...a: unknown[]) => Promise<unknown>)(...args)
    }
  const store: Required<KeyValueStore> = {
    get: record('get') as KeyValueStore['get'],
    set: record('set') as KeyValueStore['set'],
    delete: record('delete') as KeyValueStore['delete'],
    setIfAbsent: record('setIfAbsent') as KeyValueStore['setIfAbsent'],
    take: record('take') as Required<KeyValueStore>['take'],
  }
  /** The calls that wrote: `set` and `setIfAbsent`, as `[key, value, ttlSeconds]`. */
  const writes = () =>
    calls.filter((call) => call.method === 'set' || call.method === 'setIfAbsent')
  /** The first value written, parsed: the launch record. */
  const keptRecord = () => JSON.parse(String(writes()[0]?.args[1])) as Record<string, unknown>
  return { store, calls, writes, keptRecord }
}
