import { type KeyValueStore, StoreError } from '@fhir-auth/core/essentials'
import {
  describeKind,
  raceSignal,
  sanitizeCause,
  sha256Base64Url,
  storeKey,
  timeLimited,
} from '@fhir-auth/core/internal'

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
  /**
   * The FHIR base URL of the client that began the launch: a directory of clients sharing one
   * store and redirect URI routes the callback by it, and another client refuses the launch.
   * Absent from records written before 0.7.
   */
  readonly baseUrl?: string | undefined
  /** Epoch milliseconds by the client's clock. */
  readonly createdAt: number
}

/** How long a launch may take from redirect to callback: 10 minutes. */
export const launchLifetimeSeconds = 600

/** How a store call is bounded: the client's time limit, and the caller's signal. */
export interface StoreCallLimits {
  readonly timeoutMs: number
  readonly signal?: AbortSignal | undefined
}

/** The store key of a launch: derived from `state`, which never appears as a key name itself. */
export async function launchKey(state: string): Promise<string> {
  return storeKey('launch', await sha256Base64Url(state))
}

/**
 * Keeps a launch under its state for {@link launchLifetimeSeconds}.
 *
 * @throws StoreError when the store refuses it (nothing else is done: the app must not redirect).
 */
export async function saveLaunch(
  store: KeyValueStore,
  record: LaunchRecord,
  limits: StoreCallLimits,
): Promise<void> {
  const key = await launchKey(record.state)
  await guarded('set', limits, () => store.set(key, JSON.stringify(record), launchLifetimeSeconds))
}

/**
 * Takes the launch for `state` out of the store — atomically with `take` when the store has it,
 * else after claiming it with `setIfAbsent` — so a replayed callback finds nothing. `undefined` when there is none, it is not ours, or it
 * is older than {@link launchLifetimeSeconds} by the client's clock.
 *
 * @throws StoreError when the store fails, does not answer in time, or returns something that is
 *   neither a string nor nothing.
 */
export async function takeLaunch(
  store: KeyValueStore,
  state: string,
  now: Date,
  limits: StoreCallLimits,
): Promise<LaunchRecord | undefined> {
  const key = await launchKey(state)
  const text: unknown = await guarded('take', limits, async () => {
    if (store.take !== undefined) return store.take(key)
    // No atomic take: the first caller to claim the state reads and deletes the launch, and a
    // concurrent replay (two tabs, two processes) loses the claim and finds nothing.
    const claimed: unknown = await store.setIfAbsent(`${key}:taken`, '1', launchLifetimeSeconds)
    if (claimed === false) return undefined
    if (claimed !== true) {
      throw new StoreError('take', `the launch store's setIfAbsent gave ${describeKind(claimed)}`)
    }
    const value = await store.get(key)
    await store.delete(key)
    return value
  })
  if (text === undefined || text === null) return undefined
  if (typeof text !== 'string') {
    throw new StoreError('take', `the launch store returned ${describeKind(text)}, not a string`)
  }
  const record = parseLaunch(text)
  if (record === undefined || record.state !== state) return undefined
  if (now.getTime() - record.createdAt > launchLifetimeSeconds * 1000) return undefined
  return record
}

/**
 * Runs a store call under the client's time limit and the caller's signal; anything it throws
 * becomes a StoreError naming only the error's class (its message may quote the value).
 */
function guarded<T>(
  operation: 'set' | 'take',
  limits: StoreCallLimits,
  call: () => Promise<T>,
): Promise<T> {
  const verb = operation === 'set' ? 'keep' : 'return'
  const stopped = (why: string) =>
    new StoreError(operation, `the launch store failed to ${verb} the launch (${why})`)
  // Started by raceSignal, so a signal already aborted calls nothing.
  const limited = () =>
    timeLimited(call, limits.timeoutMs, () =>
      stopped(`no answer within ${limits.timeoutMs} ms`),
    ).catch((error: unknown) => {
      if (error instanceof StoreError) throw error
      throw stopped(error instanceof Error ? sanitizeCause(error).name : describeKind(error))
    })
  return raceSignal(limited, limits.signal, () => stopped('aborted by the caller'))
}

/** A record this library wrote, member by member; anything else (corrupted, foreign) is none. */
export function parseLaunch(text: string): LaunchRecord | undefined {
  let value: Partial<Record<keyof LaunchRecord, unknown>>
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const { state, codeVerifier, nonce, redirectUri, scopes, issuer, createdAt, baseUrl } = value
  if (
    typeof state !== 'string' ||
    typeof codeVerifier !== 'string' ||
    codeVerifier === '' ||
    typeof redirectUri !== 'string' ||
    typeof issuer !== 'string' ||
    typeof createdAt !== 'number' ||
    !Number.isFinite(createdAt) ||
    !Array.isArray(scopes) ||
    !scopes.every((scope) => typeof scope === 'string') ||
    (nonce !== undefined && typeof nonce !== 'string') ||
    (baseUrl !== undefined && typeof baseUrl !== 'string')
  )
    return undefined
  return { state, codeVerifier, nonce, redirectUri, scopes, issuer, createdAt, baseUrl }
}
