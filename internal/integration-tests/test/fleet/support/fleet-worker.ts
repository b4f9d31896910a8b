/**
 * One process of the fleet test (`backend-token-fleet.test.ts`): a `Client` with
 * `backendTokens({ store: redisStore(…) })` on the shared Redis, driven over the IPC channel.
 * Run with `node --import tsx --conditions=@fhir-auth/source`, as `fork` in fleet.ts does.
 */
import { type BackendTokens, Client, type FetchLike, type Logger } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'
import { type FromWorker, type ToWorker, type WorkerSetup, workerHeader } from './fleet-messages.js'

let clockOffsetMs = 0
let tokens: BackendTokens | undefined
let index = -1
const warnings: string[] = []

function send(message: FromWorker): void {
  process.send?.(message)
}

async function setUp(setup: WorkerSetup): Promise<void> {
  index = setup.index
  const redis = await createClient({ url: setup.redisUrl }).connect()
  // Every request says which worker sent it, so the server side can tell who holds the lock.
  const taggedFetch: FetchLike = (url, init) => {
    const headers = new Headers(init.headers)
    headers.set(workerHeader, String(setup.index))
    return fetch(url, { ...init, headers })
  }
  const logger: Logger = {
    info() {},
    error() {},
    warn: (_message, fields) => void warnings.push(String(fields?.event ?? 'unnamed')),
  }
  const client = new Client(
    {
      baseUrl: setup.fhirBaseUrl,
      clientId: setup.clientId,
      privateKey: setup.privateKeyPem,
      kid: setup.kid,
      scopes: [...setup.scopes],
      allowInsecureLocalhost: true,
    },
    {
      clientType: 'confidential_asymmetric',
      fetch: taggedFetch,
      logger,
      timeoutMs: setup.timeoutMs,
      now: () => new Date(Date.now() + clockOffsetMs),
    },
  )
  const store = redisStore(redis, { encryptionKey: Buffer.from(setup.encryptionKeyHex, 'hex') })
  tokens = client.backendTokens({ store })
  send({ type: 'ready', index })
}

async function run(calls: number, concurrency: number): Promise<void> {
  const handle = tokens
  if (handle === undefined) throw new Error('run before setup')
  warnings.length = 0
  const seen = new Set<string>()
  const failures: string[] = []
  let succeeded = 0
  for (let done = 0; done < calls; done += concurrency) {
    const round = Array.from({ length: Math.min(concurrency, calls - done) }, () =>
      handle.accessToken(),
    )
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
  send({
    type: 'done',
    index,
    succeeded,
    tokens: [...seen],
    failures,
    warnings: [...warnings],
  })
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'run') clockOffsetMs = message.clockOffsetMs
  const work = message.type === 'setup' ? setUp(message) : run(message.calls, message.concurrency)
  work.catch((error: unknown) => {
    console.error('fleet worker failed:', error)
    process.exit(1)
  })
})
// The parent closes the channel when the test ends: leave then (Redis would keep us alive).
process.on('disconnect', () => process.exit(0))
