import { ConfigurationError } from '../errors/configuration-error.js'
import { StoreError, type StoreOperation } from '../errors/store-error.js'
import type { KeyValueStore } from './key-value-store.js'
import { checkStoreKey, checkStoreWrite } from './store-arguments.js'

/** Options of {@link indexedDbStore}. */
export interface IndexedDbStoreOptions {
  /** The database's name; default `fhir-auth`. Stores of one origin with one name share entries. */
  readonly databaseName?: string
  /** The clock that ends entries; defaults to the system clock. */
  readonly now?: () => Date
  /** The IndexedDB to use; defaults to the runtime's `indexedDB`. */
  readonly indexedDB?: IDBFactory
}

/** What is kept under a key: the value and when it ends (IndexedDB has no expiry). */
interface Stored {
  readonly v: string
  readonly e: number
}

/** The one object store of the database, and its index of expiry times. */
const entriesName = 'entries'
const expiryIndexName = 'expiry'

/**
 * A {@link KeyValueStore} on IndexedDB, for browser apps whose tabs share sessions (pass it to
 * `client.sessions({ store })`) or launches. Every tab of the origin sees the same database, and
 * `setIfAbsent` and `take` are each one read-write transaction: IndexedDB runs read-write
 * transactions over the same object store one after the other, across every connection of the
 * origin, and a transaction started after another committed sees its writes. So of several tabs
 * racing for one key exactly one wins, and a tab that wins a lock another tab just freed reads
 * what that tab wrote before freeing it. `webStorageStore(localStorage)` offers neither across
 * tabs (a write reaches the other tabs' `localStorage` later, in no order with anything else).
 *
 * The database opens with the first operation; entries that expired are swept then. An
 * operation the browser refuses (storage disabled, quota, a database closed under it) is a
 * `StoreError` naming the operation and the browser's error name, never a key or a value.
 *
 * @throws ConfigurationError on `indexedDB` when none is given and the runtime has none, and
 *   on `databaseName` unless it is a non-empty string.
 * @see https://www.w3.org/TR/IndexedDB/#transaction-scheduling Indexed Database API: transaction scheduling
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0014-browser-tabs-share-sessions-through-indexeddb.md ADR 0014
 */
export function indexedDbStore(options: IndexedDbStoreOptions = {}): Required<KeyValueStore> {
  const factory = options.indexedDB ?? defaultFactory()
  const databaseName = options.databaseName ?? 'fhir-auth'
  if (typeof databaseName !== 'string' || databaseName === '') {
    throw new ConfigurationError({
      invalidAttribute: 'databaseName',
      invalidValue: typeof databaseName,
      message: 'databaseName must be a non-empty string',
    })
  }
  const now = options.now ?? (() => new Date())
  let database: Promise<IDBDatabase> | undefined

  const connect = (operation: StoreOperation): Promise<IDBDatabase> => {
    database ??= openDatabase(factory, databaseName, operation).then(
      (opened) => {
        // Another tab upgrading, or the browser closing the connection: the next call reopens.
        opened.onversionchange = () => {
          opened.close()
          database = undefined
        }
        opened.onclose = () => {
          database = undefined
        }
        sweep(opened, now().getTime())
        return opened
      },
      (error: unknown) => {
        database = undefined
        throw error
      },
    )
    return database
  }

  /**
   * Runs `body` in one transaction and resolves with what its result function returns once the
   * transaction committed (so every later transaction, in any tab, sees its writes).
   */
  const transact = async <T>(
    operation: StoreOperation,
    mode: IDBTransactionMode,
    body: (entries: IDBObjectStore) => () => T,
  ): Promise<T> => {
    const opened = await connect(operation)
    return new Promise<T>((resolve, reject) => {
      let transaction: IDBTransaction
      let result: () => T
      try {
        transaction = opened.transaction(entriesName, mode)
        result = body(transaction.objectStore(entriesName))
      } catch (error) {
        // A connection the browser closed refuses new transactions: the next call reopens.
        database = undefined
        return reject(refusal(operation, error))
      }
      transaction.oncomplete = () => resolve(result())
      transaction.onabort = () => reject(refusal(operation, transaction.error))
    })
  }

  const live = (found: unknown): string | undefined => {
    const stored = asStored(found)
    return stored !== undefined && stored.e > now().getTime() ? stored.v : undefined
  }

  const record = (value: string, ttlSeconds: number): Stored => ({
    v: value,
    e: now().getTime() + ttlSeconds * 1000,
  })

  return Object.freeze({
    async get(key: string) {
      checkStoreKey(key)
      return transact('get', 'readonly', (entries) => {
        const request = entries.get(key)
        return () => live(request.result)
      })
    },
    async set(key: string, value: string, ttlSeconds: number) {
      checkStoreWrite(key, value, ttlSeconds)
      return transact('set', 'readwrite', (entries) => {
        if (ttlSeconds <= 0) entries.delete(key)
        else entries.put(record(value, ttlSeconds), key)
        return () => undefined
      })
    },
    async delete(key: string) {
      checkStoreKey(key)
      return transact('delete', 'readwrite', (entries) => {
        entries.delete(key)
        return () => undefined
      })
    },
    async setIfAbsent(key: string, value: string, ttlSeconds: number) {
      checkStoreWrite(key, value, ttlSeconds)
      return transact('setIfAbsent', 'readwrite', (entries) => {
        let won = false
        const request = entries.get(key)
        request.onsuccess = () => {
          if (live(request.result) !== undefined) return
          if (ttlSeconds <= 0) {
            entries.delete(key)
            return
          }
          entries.put(record(value, ttlSeconds), key)
          won = true
        }
        return () => won
      })
    },
    async take(key: string) {
      checkStoreKey(key)
      return transact('take', 'readwrite', (entries) => {
        const request = entries.get(key)
        request.onsuccess = () => {
          if (request.result !== undefined) entries.delete(key)
        }
        return () => live(request.result)
      })
    },
  })
}

/** Opens (and on first use creates) the database: one object store, indexed by expiry. */
function openDatabase(
  factory: IDBFactory,
  name: string,
  operation: StoreOperation,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let request: IDBOpenDBRequest
    try {
      request = factory.open(name, 1)
    } catch (error) {
      return reject(refusal(operation, error))
    }
    request.onupgradeneeded = () => {
      const entries = request.result.createObjectStore(entriesName)
      entries.createIndex(expiryIndexName, 'e')
    }
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(refusal(operation, request.error))
    // A tab holding an older version of the database keeps it open: wait for it (it closes on
    // `versionchange`), within the caller's deadline.
  })
}

/**
 * Deletes the entries that expired by `time` (launches never completed, locks never freed), so
 * the database does not grow. Garbage collection only: a failure is left for the next opening.
 */
function sweep(database: IDBDatabase, time: number): void {
  try {
    const transaction = database.transaction(entriesName, 'readwrite')
    const expired = transaction
      .objectStore(entriesName)
      .index(expiryIndexName)
      .openKeyCursor(IDBKeyRange.upperBound(time))
    expired.onsuccess = () => {
      const cursor = expired.result
      if (cursor === null) return
      transaction.objectStore(entriesName).delete(cursor.primaryKey)
      cursor.continue()
    }
    // Handled, so that a failed sweep is no unhandled error event.
    transaction.onabort = () => undefined
  } catch {
    // The connection is closing: the next one sweeps.
  }
}

function asStored(found: unknown): Stored | undefined {
  if (typeof found !== 'object' || found === null) return undefined
  const { v, e } = found as Record<string, unknown>
  return typeof v === 'string' && typeof e === 'number' ? { v, e } : undefined
}

function defaultFactory(): IDBFactory {
  let factory: unknown
  try {
    factory = (globalThis as { indexedDB?: unknown }).indexedDB
  } catch {
    // Browsers with storage disabled may throw a SecurityError on access.
  }
  if (typeof factory === 'object' && factory !== null) return factory as IDBFactory
  throw new ConfigurationError({
    invalidAttribute: 'indexedDB',
    message: 'indexedDbStore needs IndexedDB (a browser); this runtime has none available',
  })
}

/** A {@link StoreError} for an operation IndexedDB refused: its error's name, never its message. */
function refusal(operation: StoreOperation, error: unknown): StoreError {
  // A DOMException's name (QuotaExceededError, InvalidStateError…) says nothing secret.
  const name = error instanceof Error || isNamed(error) ? error.name : typeof error
  return new StoreError(operation, `IndexedDB refused ${operation} (${name})`)
}

function isNamed(error: unknown): error is { readonly name: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { name?: unknown }).name === 'string'
  )
}
