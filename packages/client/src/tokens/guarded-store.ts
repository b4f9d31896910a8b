import { type KeyValueStore, type Logger, StoreError } from '@fhir-auth/core/essentials'

/** What a store operation gives when the store failed it, did not answer in time, or is down. */
export const storeFailed = Symbol('store failed')
export type StoreFailed = typeof storeFailed

/**
 * What {@link GuardedStore.read} gives when the store answered with a value that cannot be read
 * (a `StoreError` whose `reason` is `unreadable`: a sealed value that does not open): the store
 * works, this value is no use.
 */
export const unreadableValue = Symbol('unreadable value')
export type UnreadableValue = typeof unreadableValue

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

  /**
   * The value as text, `undefined` when there is none, or {@link storeFailed} — also when the
   * value cannot be read (the store counts as down then, as for any failure).
   */
  get(key: string): Promise<string | undefined | StoreFailed> {
    return this.#run('get', () => this.#options.store.get(key), isText).then(noNull)
  }

  /**
   * As {@link get}, but a value the store cannot read is {@link unreadableValue}, and leaves the
   * store up: for a caller to whom such a value is simply no value.
   */
  read(key: string): Promise<string | undefined | StoreFailed | UnreadableValue> {
    return this.#run('get', () => this.#options.store.get(key), isText, unreadableValue).then(
      noNull,
    )
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

  /** Given `unreadable`, a `StoreError` whose reason is `unreadable` gives it: no failure. */
  async #run<T, U = never>(
    name: string,
    operation: () => Promise<unknown>,
    accept: (value: unknown) => value is T,
    unreadable?: U,
  ): Promise<T | StoreFailed | U> {
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
      if (unreadable !== undefined && StoreError.isInstance(error) && error.reason === 'unreadable')
        return unreadable
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

/** What `get` may answer. */
function isText(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === 'string'
}

function noNull<T>(value: T | null): T | undefined {
  return value === null ? undefined : value
}

/** `set` and `delete` promise nothing about their value. */
function isAnything(_value: unknown): _value is unknown {
  return true
}

function describeType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}
