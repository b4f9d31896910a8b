import { createHash, randomBytes } from 'node:crypto'
import type { KeyValueStore } from '@fhir-auth/client'

/**
 * JSON values kept server-side in a {@link KeyValueStore} under a fresh, unguessable id that the
 * browser holds in a cookie. The store key is a hash of the id (`<prefix>:<SHA-256>`), so the
 * store never holds a cookie value, and each value ends in the store itself after its lifetime.
 *
 * The app keeps two kinds in the same store as the library's launches: the launch binding (which
 * `state` this browser began) and the signed-in session (its tokens).
 */
export class CookieKeyedStore<Value> {
  readonly #store: KeyValueStore
  readonly #prefix: string
  readonly #lifetimeSeconds: number

  constructor(store: KeyValueStore, prefix: string, lifetimeSeconds: number) {
    this.#store = store
    this.#prefix = prefix
    this.#lifetimeSeconds = lifetimeSeconds
  }

  /**
   * Keeps `value` under a new id and returns the id. A new id every time (never the one the
   * browser sent), so an id planted by an attacker cannot be promoted (session fixation).
   */
  async create(value: Value): Promise<string> {
    // 256 bits from the CSPRNG: as unguessable as the tokens a session holds.
    const id = randomBytes(32).toString('base64url')
    await this.update(id, value)
    return id
  }

  /** The live value under this id, or `undefined` (unknown, expired, unreadable or no id). */
  async get(id: string | undefined): Promise<Value | undefined> {
    if (id === undefined) return undefined
    return parse(await this.#store.get(this.#key(id)))
  }

  /** The value, removed from the store, so it serves once (a callback). */
  async take(id: string | undefined): Promise<Value | undefined> {
    if (id === undefined) return undefined
    const key = this.#key(id)
    if (this.#store.take !== undefined) return parse(await this.#store.take(key))
    const stored = await this.#store.get(key)
    await this.#store.delete(key)
    return parse(stored)
  }

  /** Replaces the value (new tokens after a refresh); its lifetime starts again. */
  async update(id: string, value: Value): Promise<void> {
    await this.#store.set(this.#key(id), JSON.stringify(value), this.#lifetimeSeconds)
  }

  #key(id: string): string {
    return `${this.#prefix}:${createHash('sha256').update(id).digest('base64url')}`
  }
}

function parse<Value>(text: string | null | undefined): Value | undefined {
  if (typeof text !== 'string') return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value === null ? undefined : (value as Value)
  } catch {
    return undefined
  }
}
