/**
 * The parent side of the fleet test: N real Node processes (fleet-worker.ts), each a `Client`
 * with `backendTokens` on one shared Redis, started together and told what to do over IPC.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { FromWorker, RunReport, WorkerRun, WorkerSetup } from './fleet-messages.js'

/** The backend-token worker; the session fleet passes its own (session-fleet-worker.ts). */
const backendTokenWorker = join(import.meta.dirname, 'fleet-worker.ts')
const tsx = createRequire(import.meta.url).resolve('tsx')

/** One worker process and its messages. */
class Worker {
  readonly index: number
  readonly process: ChildProcess
  readonly #waiting = new Map<FromWorker['type'], (message: FromWorker) => void>()
  readonly exited: Promise<void>
  #stderr = ''

  constructor(index: number, workerPath: string) {
    this.index = index
    this.process = fork(workerPath, [], {
      execArgv: ['--import', tsx, '--conditions=@fhir-auth/source'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString()
    })
    this.process.on('message', (message: FromWorker) => {
      const resolve = this.#waiting.get(message.type)
      this.#waiting.delete(message.type)
      resolve?.(message)
    })
    this.exited = new Promise((resolve) => this.process.once('exit', () => resolve()))
  }

  /** Sends `message` and resolves with the worker's answer of type `answer`. */
  request<T extends FromWorker>(message: { readonly type: string }, answer: T['type']): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null) =>
        reject(new Error(`fleet worker ${this.index} exited (${code ?? signal}):\n${this.#stderr}`))
      this.process.once('exit', onExit)
      this.#waiting.set(answer, (reply) => {
        this.process.off('exit', onExit)
        resolve(reply as T)
      })
      this.process.send(message)
    })
  }
}

/** A running fleet; its workers' runs take `Run` and report `Report`. */
export interface Fleet<
  Run extends { readonly type: 'run' } = WorkerRun,
  Report extends RunReport = RunReport,
> {
  readonly size: number
  /**
   * Every live worker makes `calls` `accessToken()` calls (`concurrency` at a time) with its
   * clock `clockOffsetMs` ahead; resolves with the reports of the workers that finished (a
   * worker killed meanwhile has none).
   */
  run(options: Omit<Run, 'type'>): Promise<Report[]>
  /** Kills worker `index` with SIGKILL (no clean-up of any kind) and waits until it is gone. */
  kill(index: number): Promise<void>
  close(): Promise<void>
}

/**
 * Starts `size` workers (`workerPath`: the backend-token worker unless given) and sets each up;
 * resolves once every one is ready.
 */
export async function startFleet<
  Setup extends { readonly type: 'setup'; readonly index: number } = WorkerSetup,
  Run extends { readonly type: 'run' } = WorkerRun,
  Report extends RunReport = RunReport,
>(
  size: number,
  setup: Omit<Setup, 'type' | 'index'>,
  workerPath = backendTokenWorker,
): Promise<Fleet<Run, Report>> {
  const workers = Array.from({ length: size }, (_, index) => new Worker(index, workerPath))
  const live = new Set(workers)
  const fleet: Fleet<Run, Report> = {
    size,
    async run(options) {
      const running = [...live].map((worker) =>
        worker.request<Report>({ type: 'run', ...options }, 'done').catch((error: unknown) => {
          // A worker the test killed has no report; any other exit is a failure.
          if (live.has(worker)) throw error
          return undefined
        }),
      )
      return (await Promise.all(running)).filter((report) => report !== undefined)
    },
    async kill(index) {
      const worker = workers[index]
      if (worker === undefined || !live.has(worker)) throw new Error(`no live worker ${index}`)
      live.delete(worker)
      worker.process.kill('SIGKILL')
      await worker.exited
    },
    async close() {
      for (const worker of workers) {
        if (worker.process.connected) worker.process.disconnect()
      }
      const force = setTimeout(() => {
        for (const worker of workers) worker.process.kill('SIGKILL')
      }, 5_000)
      await Promise.all(workers.map((worker) => worker.exited))
      clearTimeout(force)
    },
  }
  try {
    await Promise.all(
      workers.map((worker) =>
        worker.request({ type: 'setup', index: worker.index, ...setup }, 'ready'),
      ),
    )
  } catch (error) {
    await fleet.close()
    throw error
  }
  return fleet
}
