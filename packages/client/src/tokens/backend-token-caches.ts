import { defaultTimeoutMs, type KeyValueStore, memoryStore } from '@fhir-auth/core'
import type { ProtocolContext } from '../protocol-context.js'
import type { ProtocolImplementation } from '../protocol-implementation.js'
import { backendTokenCacheId } from './backend-token-identity.js'
import { SharedTokenCache } from './shared-token-cache.js'

/** One `backendTokens` handle's request: its options, without the store and the validity. */
export type BackendTokenRequest = Parameters<ProtocolImplementation['backendTokenIdentity']>[0]

/**
 * The backend token caches of one client: one entry per store and token identity, shared by
 * every `backendTokens` handle that asks for the same token, so two handles in one process never
 * make two requests. Without a store, entries live in this client's own memory. Loaded on a
 * handle's first token: an app that never reuses backend tokens never downloads it.
 *
 * @internal
 */
export class BackendTokenCaches {
  readonly #context: ProtocolContext
  readonly #caches = new WeakMap<KeyValueStore, Map<string, SharedTokenCache>>()
  #ownStore: KeyValueStore | undefined

  constructor(context: ProtocolContext) {
    this.#context = context
  }

  /** The entry for what `request` asks, in `store` (else this client's memory). */
  async entry(
    implementation: ProtocolImplementation,
    store: KeyValueStore | undefined,
    request: BackendTokenRequest,
  ): Promise<SharedTokenCache> {
    const id = await backendTokenCacheId(await implementation.backendTokenIdentity(request))
    const home = store ?? this.#defaultStore()
    let entries = this.#caches.get(home)
    if (entries === undefined) {
      entries = new Map()
      this.#caches.set(home, entries)
    }
    let cache = entries.get(id)
    if (cache === undefined) {
      const { options } = this.#context
      cache = new SharedTokenCache({
        store: home,
        id,
        now: options.now,
        timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
        logger: options.logger,
        request: () => implementation.requestBackendToken(request),
      })
      entries.set(id, cache)
    }
    return cache
  }

  #defaultStore(): KeyValueStore {
    this.#ownStore ??= memoryStore({ now: this.#context.options.now })
    return this.#ownStore
  }
}
