import { type KeyValueStore, StoreError } from '@fhir-auth/core'
import { sha256Base64Url, storeKey } from '@fhir-auth/core/internal'

/** What `beginAuthorization` keeps until the callback: everything the code exchange needs. */
export interface LaunchRecord {
  readonly state: string
  readonly codeVerifier: string
  /** Sent when the scopes include `openid`; the ID token must carry it back. */
  readonly nonce?: string | undefined
  readonly redirectUri: string
  readonly scopes: readonly string[]
  /** The issuer the authorization request was made to (`aud`, RFC 9207 `iss`). */
  readonly issuer: string
  /** Epoch milliseconds by the client's clock. */
  readonly createdAt: number
}

/** How long a launch may take from redirect to callback: 10 minutes. */
export const launchLifetimeSeconds = 600

/** The store key of a launch: derived from `state`, which never appears as a key name itself. */
async function launchKey(state: string): Promise<string> {
  return storeKey('launch', await sha256Base64Url(state))
}

/**
 * Keeps a launch under its state for {@link launchLifetimeSeconds}.
 *
 * @throws StoreError when the store refuses it (nothing else is done: the app must not redirect).
 */
export async function saveLaunch(store: KeyValueStore, record: LaunchRecord): Promise<void> {
  const key = await launchKey(record.state)
  await guarded('set', () => store.set(key, JSON.stringify(record), launchLifetimeSeconds))
}

/**
 * Takes the launch for `state` out of the store — atomically with `take` when the store has it
 * — so a replayed callback finds nothing. `undefined` when there is none, it is not ours, or it
 * is older than {@link launchLifetimeSeconds} by the client's clock.
 *
 * @throws StoreError when the store fails.
 */
export async function takeLaunch(
  store: KeyValueStore,
  state: string,
  now: Date,
): Promise<LaunchRecord | undefined> {
  const key = await launchKey(state)
  const text = await guarded('take', async () => {
    if (store.take !== undefined) return store.take(key)
    const value = await store.get(key)
    await store.delete(key)
    return value
  })
  if (typeof text !== 'string') return undefined
  const record = parseLaunch(text)
  if (record === undefined || record.state !== state) return undefined
  if (now.getTime() - record.createdAt > launchLifetimeSeconds * 1000) return undefined
  return record
}

/** Runs a store call; anything it throws becomes a StoreError naming only the error's class. */
async function guarded<T>(operation: 'set' | 'take', call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof StoreError) throw error
    const name = error instanceof Error ? error.name : typeof error
    throw new StoreError(
      operation,
      `the launch store failed to ${operation === 'set' ? 'keep' : 'return'} the launch (${name})`,
    )
  }
}

function parseLaunch(text: string): LaunchRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof LaunchRecord, unknown>>
    const strings = [value.state, value.codeVerifier, value.redirectUri, value.issuer]
    if (!strings.every((member) => typeof member === 'string')) return undefined
    if (typeof value.createdAt !== 'number' || !Array.isArray(value.scopes)) return undefined
    if (value.nonce !== undefined && typeof value.nonce !== 'string') return undefined
    return value as LaunchRecord
  } catch {
    return undefined
  }
}
