import { generateState, type Logger } from '@fhir-auth/core/essentials'
import type { GuardedStore, StoreFailed } from './guarded-store.js'
import { storeFailed } from './guarded-store.js'

/**
 * Why {@link underFleetLock} asks its caller to do the work: `holder` under the lock (write the
 * result to the store before returning: the lock is freed after), `deadline` when the holder
 * wrote nothing within twice the request timeout (write it too), `store-failed` when the store
 * failed or did not answer in time (the result cannot be shared).
 */
export type FleetLockTurn = 'holder' | 'deadline' | 'store-failed'

/** What one {@link underFleetLock} run needs. */
export interface FleetLockRun<T> {
  readonly store: GuardedStore
  /** The lock key: its value is a random owner, its time to live the request timeout. */
  readonly lockKey: string
  /** The client's request timeout: the lock's time to live, and half of a waiter's deadline. */
  readonly timeoutMs: number
  readonly logger: Logger
  /** The event and message of the warning logged when a waiter gives up on the holder. */
  readonly deadlineWarning: { readonly event: string; readonly message: string }
  /** Reads what a holder writes. */
  readonly read: () => Promise<T | undefined | StoreFailed>
  /** Whether what was read is the result (another process did the work). */
  readonly isDone: (read: T | undefined | StoreFailed) => read is T
  /** Does the work, in this process (see {@link FleetLockTurn}). */
  readonly work: (turn: FleetLockTurn) => Promise<T>
}

const firstPollMs = 10
const longestPollMs = 200

/**
 * The fleet lock of ADR 0010: one process of those sharing a store does a piece of work (a token
 * request, a refresh) and writes its result; the others wait on the store for it. `firstRead` is
 * what the caller just read (not read again). Each turn: a result read is returned; otherwise the
 * caller tries to win the lock with `setIfAbsent` (time to live = the request timeout). The
 * winner reads once more (the previous holder may have written and freed the lock since), does
 * the work and frees the lock before returning; the others poll the store (10 ms doubling to
 * 200 ms), try the lock again when it is gone (a crashed holder costs one more piece of work,
 * not one per process) and after twice the request timeout do the work on their own. A store
 * that fails hands the work to this process at once (`store-failed`).
 *
 * @see docs/adr/0010-backend-tokens-shared-by-a-fleet.md in the fhir-auth repository
 * @internal
 */
export async function underFleetLock<T>(
  run: FleetLockRun<T>,
  firstRead: T | undefined | StoreFailed,
): Promise<T> {
  const waitUntil = Date.now() + 2 * run.timeoutMs
  let stored = firstRead
  for (let poll = firstPollMs; ; poll = Math.min(poll * 2, longestPollMs)) {
    if (run.isDone(stored)) return stored
    if (stored === storeFailed) return run.work('store-failed')
    const owner = generateState()
    const won = await run.store.setIfAbsent(run.lockKey, owner, Math.ceil(run.timeoutMs / 1000))
    if (won === storeFailed) return run.work('store-failed')
    if (won) return holding(run, owner)
    if (Date.now() >= waitUntil) {
      run.logger.warn(run.deadlineWarning.message, { event: run.deadlineWarning.event })
      return run.work('deadline')
    }
    await sleep(Math.min(poll + Math.random() * poll, Math.max(0, waitUntil - Date.now())))
    stored = await run.read()
  }
}

async function holding<T>(run: FleetLockRun<T>, owner: string): Promise<T> {
  try {
    // The previous holder may have written its result and freed the lock since our last read.
    const stored = await run.read()
    if (run.isDone(stored)) return stored
    return await run.work(stored === storeFailed ? 'store-failed' : 'holder')
  } finally {
    // Awaited, so the caller's operation ends with the lock freed: an app that closes its store
    // right after its last call leaves no lock behind and no failed delete in its logs. Bounded
    // and never failing: at most two store operations, each within the store's time limit, and
    // a store failure is the GuardedStore's warning, not an error (the lock's time to live
    // frees it then). Freed only when still this holder's: it may have expired and been taken.
    const holder = await run.store.get(run.lockKey)
    if (holder === owner) await run.store.delete(run.lockKey)
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
