import { defaultTimeoutMs, type KeyValueStore } from '@fhir-auth/core/essentials'
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
  /** The entries without a store: their tokens live in this client's memory. */
  readonly #ownEntries = new Map<string, SharedTokenCache>()

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
    let entries = store === undefined ? this.#ownEntries : this.#caches.get(store)
    if (entries === undefined) {
      entries = new Map()
      this.#caches.set(store as KeyValueStore, entries)
    }
    let cache = entries.get(id)
    if (cache === undefined) {
      const { options } = this.#context
      cache = new SharedTokenCache({
        store,
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
}
