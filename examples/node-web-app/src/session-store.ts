import { randomBytes } from 'node:crypto'

/** An authorization request in flight: what the callback must match and send back. */
export interface PendingAuthorization {
  readonly state: string
  readonly codeVerifier: string
}

/** The result of a completed launch. The token stays on the server; the browser never sees it. */
export interface SignedIn {
  readonly patientId: string
  readonly accessToken: string
  readonly grantedScope: string
}

/** One browser's server-side state. */
export interface Session {
  pendingAuthorization?: PendingAuthorization
  signedIn?: SignedIn
}

interface StoredSession {
  readonly session: Session
  readonly expiresAt: number
}

/**
 * Sessions kept in server memory, keyed by an unguessable id that travels in a cookie.
 *
 * `state` and the PKCE `codeVerifier` must survive the round trip through the authorization
 * server but must not be readable or replaceable by the browser, so they live here rather than
 * in the cookie itself. One process only: use Redis or a database behind the same three
 * methods when the app runs on several instances.
 */
export class SessionStore {
  readonly #sessions = new Map<string, StoredSession>()
  readonly #lifetimeMs: number
  readonly #now: () => number

  /** @param lifetimeMs how long a session lives after it is created. */
  constructor(lifetimeMs: number, now: () => number = Date.now) {
    this.#lifetimeMs = lifetimeMs
    this.#now = now
  }

  /**
   * Starts a fresh session and returns its id. Every login starts a new one (never reusing the
   * id the browser sent), so an id planted by an attacker cannot be promoted to a signed-in
   * session (session fixation).
   */
  create(session: Session): string {
    this.#removeExpired()
    // 256 bits from the CSPRNG: as unguessable as the tokens the session will hold.
    const id = randomBytes(32).toString('base64url')
    this.#sessions.set(id, { session, expiresAt: this.#now() + this.#lifetimeMs })
    return id
  }

  /** The live session with this id, or `undefined` (unknown, expired or no id at all). */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined
    const stored = this.#sessions.get(id)
    if (stored === undefined || stored.expiresAt <= this.#now()) return undefined
    return stored.session
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.#sessions.delete(id)
  }

  /** Sessions currently held (for tests and metrics). */
  get size(): number {
    return this.#sessions.size
  }

  #removeExpired(): void {
    const now = this.#now()
    for (const [id, stored] of this.#sessions) {
      if (stored.expiresAt <= now) this.#sessions.delete(id)
    }
  }
}
