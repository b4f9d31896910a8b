import { createHash, randomBytes } from 'node:crypto'
import type { KeyValueStore } from '@fhir-auth/client'

/** One browser's server-side state. */
export interface AppSession {
  /**
   * Between the redirect to the server and the callback: the `state` of the launch this browser
   * began. It binds the callback to this browser (RFC 6749 §10.12); the launch itself (PKCE
   * verifier, nonce) is kept by `beginAuthorization` in the same store, under its own key.
   */
  readonly pendingState?: string
  /** After the callback: the tokens, as `TokenSet.serialize()` wrote them, and the patient. */
  readonly signedIn?: { readonly tokens: string; readonly patientId: string }
}

/**
 * The app's sessions in any {@link KeyValueStore} — `memoryStore()` for one process, a Redis
 * store for several — keyed by an unguessable id that travels in a cookie. The store key is a
 * hash of the id (`web-app:session:<SHA-256>`), so the store never holds the cookie value, and
 * the session ends in the store itself after its lifetime.
 *
 * The same store keeps the library's launches (`fhir-auth:launch:…`): one store to run.
 */
export class SessionStore {
  readonly #store: KeyValueStore
  readonly #lifetimeSeconds: number

  /** @param lifetimeSeconds how long a session lives after it is written. */
  constructor(store: KeyValueStore, lifetimeSeconds: number) {
    this.#store = store
    this.#lifetimeSeconds = lifetimeSeconds
  }

  /**
   * Starts a fresh session and returns its id. Every login starts a new one (never reusing the
   * id the browser sent), so an id planted by an attacker cannot be promoted to a signed-in
   * session (session fixation).
   */
  async create(session: AppSession): Promise<string> {
    // 256 bits from the CSPRNG: as unguessable as the tokens the session will hold.
    const id = randomBytes(32).toString('base64url')
    await this.update(id, session)
    return id
  }

  /** The live session with this id, or `undefined` (unknown, expired, unreadable or no id). */
  async get(id: string | undefined): Promise<AppSession | undefined> {
    if (id === undefined) return undefined
    return parse(await this.#store.get(key(id)))
  }

  /** The session, removed from the store: what a callback uses, so it works once. */
  async take(id: string | undefined): Promise<AppSession | undefined> {
    if (id === undefined) return undefined
    const stored =
      this.#store.take === undefined
        ? await this.#store.get(key(id))
        : await this.#store.take(key(id))
    if (this.#store.take === undefined) await this.#store.delete(key(id))
    return parse(stored)
  }

  /** Replaces the session's content (new tokens after a refresh); its lifetime starts again. */
  async update(id: string, session: AppSession): Promise<void> {
    await this.#store.set(key(id), JSON.stringify(session), this.#lifetimeSeconds)
  }
}

function key(id: string): string {
  return `web-app:session:${createHash('sha256').update(id).digest('base64url')}`
}

function parse(text: string | null | undefined): AppSession | undefined {
  if (typeof text !== 'string') return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as AppSession) : undefined
  } catch {
    return undefined
  }
}
