/**
 * The plumbing every fleet worker process shares (fleet-worker.ts, session-fleet-worker.ts):
 * the IPC loop with the parent (fleet.ts), a `fetch` that tags each request with the worker's
 * number, a logger that keeps the warnings' events, the clock the parent moves, and the run that
 * makes calls a number at a time and reports what they gave.
 */
import type { FetchLike, Logger } from '@fhir-auth/client'
import { type FromWorker, type WorkerRun, workerHeader } from './fleet-messages.js'

/** What a worker's setup is handed to build its `Client` with. */
export interface WorkerTools {
  /** `fetch` with the worker's number in every request, so the server can tell who holds the lock. */
  readonly fetch: FetchLike
  /** Keeps the `event` of every warning for the run's report. */
  readonly logger: Logger
  /** The real time plus the offset the parent's last run asked for. */
  readonly now: () => Date
}

/**
 * Serves the parent: on `setup`, `prepare` builds the worker's client and returns the call a
 * run repeats (resolving with the access token it used); on `run`, the calls are made and
 * reported. A failed setup or run ends the process with its error on stderr.
 */
export function serveFleetWorker<Setup extends { readonly type: 'setup'; readonly index: number }>(
  name: string,
  prepare: (setup: Setup, tools: WorkerTools) => Promise<() => Promise<string>>,
): void {
  let clockOffsetMs = 0
  let call: (() => Promise<string>) | undefined
  let index = -1
  const warnings: string[] = []

  function send(message: FromWorker): void {
    process.send?.(message)
  }

  async function setUp(setup: Setup): Promise<void> {
    index = setup.index
    const fetchTagged: FetchLike = (url, init) => {
      const headers = new Headers(init.headers)
      headers.set(workerHeader, String(setup.index))
      return fetch(url, { ...init, headers })
    }
    const logger: Logger = {
      info() {},
      error() {},
      warn: (_message, fields) => void warnings.push(String(fields?.event ?? 'unnamed')),
    }
    const now = () => new Date(Date.now() + clockOffsetMs)
    call = await prepare(setup, { fetch: fetchTagged, logger, now })
    send({ type: 'ready', index })
  }

  async function run(calls: number, concurrency: number): Promise<void> {
    const once = call
    if (once === undefined) throw new Error('run before setup')
    warnings.length = 0
    const seen = new Set<string>()
    const failures: string[] = []
    let succeeded = 0
    for (let done = 0; done < calls; done += concurrency) {
      const round = Array.from({ length: Math.min(concurrency, calls - done) }, () => once())
      for (const outcome of await Promise.allSettled(round)) {
        if (outcome.status === 'fulfilled') {
          succeeded += 1
          seen.add(outcome.value)
        } else {
          const error = outcome.reason
          failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error))
        }
      }
    }
    send({ type: 'done', index, succeeded, tokens: [...seen], failures, warnings: [...warnings] })
  }

  process.on('message', (message: Setup | WorkerRun) => {
    if (message.type === 'run') clockOffsetMs = message.clockOffsetMs
    const work = message.type === 'setup' ? setUp(message) : run(message.calls, message.concurrency)
    work.catch((error: unknown) => {
      console.error(`${name} failed:`, error)
      process.exit(1)
    })
  })
  // The parent closes the channel when the test ends: leave then (Redis would keep us alive).
  process.on('disconnect', () => process.exit(0))
}
