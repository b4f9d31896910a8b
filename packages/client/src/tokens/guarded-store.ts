import type { KeyValueStore, Logger } from '@fhir-auth/core/essentials'

/** What a store operation gives when the store failed it, did not answer in time, or is down. */
export const storeFailed = Symbol('store failed')
export type StoreFailed = typeof storeFailed

const lateAnswer = Symbol('no answer in time')

/** How a {@link GuardedStore} bounds the store it guards. */
export interface GuardedStoreOptions {
  readonly store: KeyValueStore
  readonly logger: Logger
  /** How long one operation may take before the store counts as down. */
  readonly operationLimitMs: number
  /** After a failure, how long the store is left alone (every operation fails at once). */
  readonly retryAfterMs: number
  /**
   * What the first failure of an outage logs: `${store} <what happened>; ${consequence}`, with
   * `event`. By default, that backend tokens are requested directly meanwhile.
   */
  readonly unavailable?: {
    readonly store: string
    readonly consequence: string
    readonly event: string
  }
}

/**
 * A {@link KeyValueStore} seen through the rules of ADR 0010: an operation that throws, rejects,
 * answers with something that is not what the contract promises (a `get` that is not text or
 * nothing, a `setIfAbsent` that is not a boolean) or takes longer than `operationLimitMs` gives
 * {@link storeFailed} instead — never an exception, never a wait beyond the limit. After a
 * failure the store is left alone for `retryAfterMs`, so an outage costs one wait per interval,
 * not one per call. The first failure of an outage is logged, by error name only: a store's
 * message can quote a value.
 *
 * @see docs/adr/0010-backend-tokens-shared-by-a-fleet.md in the fhir-auth repository
 * @internal
 */
export class GuardedStore {
  readonly #options: GuardedStoreOptions
  /** Epoch milliseconds (real time) until which the store counts as down. */
  #downUntil = 0
  #warned = false

  constructor(options: GuardedStoreOptions) {
    this.#options = options
  }

  /** The value as text, `undefined` when there is none, or {@link storeFailed}. */
  get(key: string): Promise<string | undefined | StoreFailed> {
    return this.#run(
      'get',
      () => this.#options.store.get(key),
      (value): value is string | null | undefined =>
        value === undefined || value === null || typeof value === 'string',
    ).then((value) => (value === null ? undefined : value))
  }

  /** Whether this call took the key, or {@link storeFailed}. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean | StoreFailed> {
    return this.#run(
      'setIfAbsent',
      () => this.#options.store.setIfAbsent(key, value, ttlSeconds),
      (won): won is boolean => typeof won === 'boolean',
    )
  }

  /** Resolves `true` once written, or {@link storeFailed}. */
  set(key: string, value: string, ttlSeconds: number): Promise<true | StoreFailed> {
    return this.#done(
      this.#run('set', () => this.#options.store.set(key, value, ttlSeconds), isAnything),
    )
  }

  /** Resolves `true` once deleted, or {@link storeFailed}. */
  delete(key: string): Promise<true | StoreFailed> {
    return this.#done(this.#run('delete', () => this.#options.store.delete(key), isAnything))
  }

  async #done(operation: Promise<unknown>): Promise<true | StoreFailed> {
    return (await operation) === storeFailed ? storeFailed : true
  }

  async #run<T>(
    name: string,
    operation: () => Promise<unknown>,
    accept: (value: unknown) => value is T,
  ): Promise<T | StoreFailed> {
    if (Date.now() < this.#downUntil) return storeFailed
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<typeof lateAnswer>((resolve) => {
      timer = setTimeout(() => resolve(lateAnswer), this.#options.operationLimitMs)
    })
    try {
      // `operation()` inside the race: a store that throws synchronously is caught below, and a
      // promise that settles after the limit is still observed (no unhandled rejection).
      const result = await Promise.race([operation(), late])
      if (result === lateAnswer) return this.#failed(`did not answer ${name} in time`)
      if (!accept(result)) return this.#failed(`answered ${name} with ${describeType(result)}`)
      this.#warned = false
      return result
    } catch (error) {
      return this.#failed(`failed ${name} (${error instanceof Error ? error.name : typeof error})`)
    } finally {
      clearTimeout(timer)
    }
  }

  #failed(what: string): StoreFailed {
    this.#downUntil = Date.now() + this.#options.retryAfterMs
    if (!this.#warned) {
      this.#warned = true
      const { store, consequence, event } = this.#options.unavailable ?? backendTokensUnavailable
      this.#options.logger.warn(`${store} ${what}; ${consequence}`, { event })
    }
    return storeFailed
  }
}

const backendTokensUnavailable = {
  store: 'Backend token store',
  consequence: 'requesting tokens directly while it is unavailable',
  event: 'backend_tokens.store_unavailable',
}

/** `set` and `delete` promise nothing about their value. */
function isAnything(_value: unknown): _value is unknown {
  return true
}

function describeType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}
