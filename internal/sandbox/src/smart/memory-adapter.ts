/// <reference path="./oidc-provider.d.ts" />
import type { Adapter, AdapterPayload } from 'oidc-provider'

interface StoredEntry {
  readonly payload: AdapterPayload
  /** Epoch milliseconds after which the entry is gone; `undefined` keeps it until close. */
  readonly expiresAt: number | undefined
}

/** Models whose entries belong to a grant and disappear when the grant is revoked. */
const grantBoundModels = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
])

/** How many writes pass between two sweeps of expired entries. */
const writesBetweenSweeps = 500

/**
 * In-memory storage for one sandbox's provider: tokens, codes, sessions, grants, interactions,
 * registered clients and `jti` replay records.
 *
 * The provider's own memory adapter prints a "development only" warning and is capped at 1000
 * entries, so a long benchmark could evict a live token. This store belongs to one sandbox (no
 * state shared between sandboxes in one process), has no size cap, drops expired entries
 * lazily (no timers, so nothing keeps the process alive) and is emptied by {@link clear}.
 */
export class SandboxStore {
  readonly #entries = new Map<string, StoredEntry>()
  readonly #grantMembers = new Map<string, Set<string>>()
  readonly #sessionIdByUid = new Map<string, string>()
  readonly #idByUserCode = new Map<string, string>()
  #writesSinceSweep = 0

  /** The adapter factory handed to the provider configuration (`adapter`). */
  readonly adapterFactory = (model: string): Adapter => new SandboxAdapter(model, this)

  /** The stored payload of `model` `id`, or `undefined` when absent or expired. */
  find(model: string, id: string): AdapterPayload | undefined {
    const key = entryKey(model, id)
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#entries.delete(key)
      return undefined
    }
    return entry.payload
  }

  write(model: string, id: string, payload: AdapterPayload, expiresInSeconds?: number): void {
    const key = entryKey(model, id)
    const expiresAt =
      expiresInSeconds === undefined ? undefined : Date.now() + expiresInSeconds * 1000
    this.#entries.set(key, { payload, expiresAt })
    if (model === 'Session' && typeof payload.uid === 'string') {
      this.#sessionIdByUid.set(payload.uid, id)
    }
    if (typeof payload.userCode === 'string') this.#idByUserCode.set(payload.userCode, id)
    if (grantBoundModels.has(model) && typeof payload.grantId === 'string') {
      const members = this.#grantMembers.get(payload.grantId) ?? new Set<string>()
      members.add(key)
      this.#grantMembers.set(payload.grantId, members)
    }
    this.#writesSinceSweep += 1
    if (this.#writesSinceSweep >= writesBetweenSweeps) this.#sweep()
  }

  remove(model: string, id: string): void {
    this.#entries.delete(entryKey(model, id))
  }

  sessionIdForUid(uid: string): string | undefined {
    return this.#sessionIdByUid.get(uid)
  }

  idForUserCode(userCode: string): string | undefined {
    return this.#idByUserCode.get(userCode)
  }

  /** Deletes every token and code issued under a grant (code replay, refresh token reuse). */
  revokeGrant(grantId: string): void {
    for (const key of this.#grantMembers.get(grantId) ?? []) this.#entries.delete(key)
    this.#grantMembers.delete(grantId)
  }

  clear(): void {
    this.#entries.clear()
    this.#grantMembers.clear()
    this.#sessionIdByUid.clear()
    this.#idByUserCode.clear()
  }

  #sweep(): void {
    this.#writesSinceSweep = 0
    const now = Date.now()
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.#entries.delete(key)
    }
    for (const [grantId, members] of this.#grantMembers) {
      for (const key of members) if (!this.#entries.has(key)) members.delete(key)
      if (members.size === 0) this.#grantMembers.delete(grantId)
    }
  }
}

function entryKey(model: string, id: string): string {
  return `${model}:${id}`
}

/** The provider-facing view of {@link SandboxStore} for one model. */
class SandboxAdapter implements Adapter {
  readonly #model: string
  readonly #store: SandboxStore

  constructor(model: string, store: SandboxStore) {
    this.#model = model
    this.#store = store
  }

  async upsert(id: string, payload: AdapterPayload, expiresInSeconds?: number): Promise<void> {
    this.#store.write(this.#model, id, payload, expiresInSeconds)
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.#store.find(this.#model, id)
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const id = this.#store.idForUserCode(userCode)
    return id === undefined ? undefined : this.find(id)
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = this.#store.sessionIdForUid(uid)
    return id === undefined ? undefined : this.find(id)
  }

  async consume(id: string): Promise<void> {
    const payload = this.#store.find(this.#model, id)
    // Seconds since the epoch, as the provider's own adapter records it.
    if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000)
  }

  async destroy(id: string): Promise<void> {
    this.#store.remove(this.#model, id)
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    this.#store.revokeGrant(grantId)
  }
}
