import { ConfigurationError } from '../errors/configuration-error.js'
import { StoreError, type StoreOperation } from '../errors/store-error.js'
import type { KeyValueStore } from './key-value-store.js'
import { checkStoreKey, checkStoreWrite } from './store-arguments.js'

/** The part of the Web Storage API a {@link webStorageStore} uses (`sessionStorage`, `localStorage`). */
export interface WebStorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** Options of {@link webStorageStore}. */
export interface WebStorageStoreOptions {
  /** The clock that ends entries; defaults to the system clock. */
  readonly now?: () => Date
}

/** What is written under a key: the value and when it ends (Web Storage has no expiry). */
interface Stored {
  readonly v: string
  readonly e: number
}

/**
 * A {@link KeyValueStore} on the Web Storage API, for browser apps: by default the tab's
 * `sessionStorage`, which survives the redirect to the authorization server and back but not
 * the tab, and which other tabs do not see — so two launches in two tabs never collide.
 * Operations run synchronously inside one tab, so `setIfAbsent` and `take` are atomic there.
 *
 * They are **not atomic across tabs**, with `localStorage` or any other storage tabs share: a
 * browser hands one tab's write to the other tabs' storage later, in no order with anything
 * the tabs could lock (Web Locks included), so two tabs can both win a `setIfAbsent` and a tab
 * can read a value another tab replaced. In two Chromium tabs, 277 to 300 of 300 rounds of a
 * `setIfAbsent` race had two winners, and a lock taken with it lost 39 to 101 of 600
 * increments. Keep sessions (`client.sessions`) that tabs share in {@link indexedDbStore}.
 *
 * @param storage `sessionStorage` by default (one tab's launches); `localStorage` outlives the
 *   tab, but gives tabs no lock they can share.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0014-browser-tabs-share-sessions-through-indexeddb.md ADR 0014
 * @throws ConfigurationError on `storage` when none is given and the runtime has no `sessionStorage`.
 * @see https://html.spec.whatwg.org/multipage/webstorage.html HTML: Web Storage
 */
export function webStorageStore(
  storage?: WebStorageLike,
  options: WebStorageStoreOptions = {},
): Required<KeyValueStore> {
  const target = storage === undefined ? defaultStorage() : checkStorage(storage)
  const now = options.now ?? (() => new Date())

  const attempt = <T>(operation: StoreOperation, action: () => T): T => {
    try {
      return action()
    } catch (error) {
      // Quota and security errors say nothing secret in their name; their text is not kept.
      const name = error instanceof Error ? error.name : typeof error
      throw new StoreError(operation, `web storage refused ${operation} (${name})`)
    }
  }

  const read = (key: string): string | undefined => {
    const text = attempt('get', () => target.getItem(key))
    if (text === null) return undefined
    const stored = parseStored(text)
    if (stored !== undefined && stored.e > now().getTime()) return stored.v
    attempt('delete', () => target.removeItem(key))
    return undefined
  }

  const write = (operation: StoreOperation, key: string, value: string, ttlSeconds: number) => {
    attempt(operation, () => {
      if (ttlSeconds <= 0) return target.removeItem(key)
      const stored: Stored = { v: value, e: now().getTime() + ttlSeconds * 1000 }
      target.setItem(key, JSON.stringify(stored))
    })
  }

  return Object.freeze({
    async get(key: string) {
      checkStoreKey(key)
      return read(key)
    },
    async set(key: string, value: string, ttlSeconds: number) {
      checkStoreWrite(key, value, ttlSeconds)
      write('set', key, value, ttlSeconds)
    },
    async delete(key: string) {
      checkStoreKey(key)
      attempt('delete', () => target.removeItem(key))
    },
    async setIfAbsent(key: string, value: string, ttlSeconds: number) {
      checkStoreWrite(key, value, ttlSeconds)
      if (read(key) !== undefined) return false
      write('setIfAbsent', key, value, ttlSeconds)
      return ttlSeconds > 0
    },
    async take(key: string) {
      checkStoreKey(key)
      const value = read(key)
      attempt('take', () => target.removeItem(key))
      return value
    },
  })
}

function defaultStorage(): WebStorageLike {
  let storage: unknown
  try {
    storage = (globalThis as { sessionStorage?: unknown }).sessionStorage
  } catch {
    // Browsers with storage disabled throw a SecurityError on access.
  }
  if (storage === undefined || storage === null) {
    throw new ConfigurationError({
      invalidAttribute: 'storage',
      message:
        'webStorageStore needs a Storage (sessionStorage or localStorage); this runtime has none available',
    })
  }
  return checkStorage(storage)
}

function checkStorage(storage: unknown): WebStorageLike {
  const candidate = storage as Partial<Record<keyof WebStorageLike, unknown>> | null
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.getItem === 'function' &&
    typeof candidate.setItem === 'function' &&
    typeof candidate.removeItem === 'function'
  ) {
    return storage as WebStorageLike
  }
  throw new ConfigurationError({
    invalidAttribute: 'storage',
    invalidValue: candidate === null ? 'null' : typeof storage,
    message: 'storage must be a Web Storage object with getItem, setItem and removeItem',
  })
}

function parseStored(text: string): Stored | undefined {
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const { v, e } = parsed as Record<string, unknown>
    return typeof v === 'string' && typeof e === 'number' ? { v, e } : undefined
  } catch {
    return undefined
  }
}
