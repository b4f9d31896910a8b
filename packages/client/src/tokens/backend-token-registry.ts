import {
  ConfigurationError,
  defaultTimeoutMs,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/core'
import { lazy } from '@fhir-auth/core/internal'
import { checkClientCredentialsFlow } from '../flow.js'
import { optionalStore } from '../launch/authorization-flow.js'
import type { BackendTokensOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { ProtocolImplementation } from '../protocol-implementation.js'
import { backendTokenCacheId } from './backend-token-identity.js'
import { BackendTokens } from './backend-tokens.js'
import { SharedTokenCache } from './shared-token-cache.js'

/**
 * The backend token caches of one client: one entry per store and token identity, shared by
 * every `backendTokens` handle that asks for the same token, so two handles in one process never
 * make two requests. Without a store, entries live in this client's own memory.
 *
 * @internal
 */
export class BackendTokenRegistry {
  readonly #context: ProtocolContext
  readonly #implementation: () => Promise<ProtocolImplementation>
  readonly #caches = new WeakMap<KeyValueStore, Map<string, SharedTokenCache>>()
  #ownStore: KeyValueStore | undefined

  constructor(context: ProtocolContext, implementation: () => Promise<ProtocolImplementation>) {
    this.#context = context
    this.#implementation = implementation
  }

  /**
   * A `backendTokens` handle. Its options are checked now; the token identity (which may need
   * discovery) is worked out on first use.
   *
   * @throws ConfigurationError on `flow` (a UDAP `b2c` or `tiered_oauth` client has no client
   *   credentials), `options`, `store` or `minValiditySeconds`.
   */
  handle(input: BackendTokensOptions | undefined): BackendTokens {
    checkClientCredentialsFlow(this.#context.flow, 'backendTokens')
    const options = this.#context.readOptions(input, 'backendTokens')
    const store = optionalStore(options.store) ?? this.#defaultStore()
    const minValiditySeconds = readMinValidity(options.minValiditySeconds)
    const { store: _store, minValiditySeconds: _min, ...request } = options
    return new BackendTokens({
      baseUrl: this.#context.config.baseUrl,
      fetch: this.#context.options.fetch,
      minValiditySeconds,
      cache: lazy(async () => {
        const implementation = await this.#implementation()
        const id = await backendTokenCacheId(await implementation.backendTokenIdentity(request))
        return this.#cache(store, id, () => implementation.requestBackendToken(request))
      }),
    })
  }

  #cache(
    store: KeyValueStore,
    id: string,
    request: () => ReturnType<ProtocolImplementation['requestBackendToken']>,
  ): SharedTokenCache {
    let entries = this.#caches.get(store)
    if (entries === undefined) {
      entries = new Map()
      this.#caches.set(store, entries)
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
        request,
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

function readMinValidity(value: unknown): number {
  if (value === undefined || value === null) return 60
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value
  throw new ConfigurationError({
    invalidAttribute: 'minValiditySeconds',
    invalidValue: typeof value === 'number' ? value : typeof value,
    message: 'minValiditySeconds must be a number of seconds, 0 or more',
  })
}
