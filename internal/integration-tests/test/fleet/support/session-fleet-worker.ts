/**
 * One process of the session fleet test (`session-fleet.test.ts`): a public SMART `Client`
 * that opens one session id from `client.sessions({ store: redisStore(…) })` on the shared Redis
 * and makes `session.fetch` calls with it, driven over the IPC channel (see fleet.ts). Every
 * request carries the worker's number, so the server side can tell who holds the lock.
 */
import { Client, type FetchLike, type Logger, type Session } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient, createCluster } from 'redis'
import {
  type FromWorker,
  type SessionWorkerSetup,
  type WorkerRun,
  workerHeader,
} from './fleet-messages.js'

let clockOffsetMs = 0
let session: Session | undefined
let resource = ''
let index = -1
const warnings: string[] = []

function send(message: FromWorker): void {
  process.send?.(message)
}

async function setUp(setup: SessionWorkerSetup): Promise<void> {
  index = setup.index
  resource = setup.resource
  const redis =
    setup.clusterUrls === undefined
      ? await createClient({ url: setup.redisUrl }).connect()
      : await createCluster({ rootNodes: setup.clusterUrls.map((url) => ({ url })) }).connect()
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
      redirectUri: setup.redirectUri,
      scopes: [...setup.scopes],
      allowInsecureLocalhost: true,
    },
    {
      clientType: 'public',
      fetch: taggedFetch,
      logger,
      timeoutMs: setup.timeoutMs,
      now: () => new Date(Date.now() + clockOffsetMs),
    },
  )
  const store = redisStore(redis, { encryptionKey: Buffer.from(setup.encryptionKeyHex, 'hex') })
  session = await client.sessions({ store }).open(setup.sessionId)
  if (session === undefined) throw new Error('the session id opened nothing')
  send({ type: 'ready', index })
}

async function run(calls: number, concurrency: number): Promise<void> {
  const opened = session
  if (opened === undefined) throw new Error('run before setup')
  warnings.length = 0
  const seen = new Set<string>()
  const failures: string[] = []
  let succeeded = 0
  for (let done = 0; done < calls; done += concurrency) {
    const round = Array.from({ length: Math.min(concurrency, calls - done) }, async () => {
      const response = await opened.fetch(resource)
      if (response.status !== 200) throw new Error(`FHIR answered ${response.status}`)
      return opened.tokens.accessToken
    })
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

process.on('message', (message: SessionWorkerSetup | WorkerRun) => {
  if (message.type === 'run') clockOffsetMs = message.clockOffsetMs
  const work = message.type === 'setup' ? setUp(message) : run(message.calls, message.concurrency)
  work.catch((error: unknown) => {
    console.error('session fleet worker failed:', error)
    process.exit(1)
  })
})
// The parent closes the channel when the test ends: leave then (Redis would keep us alive).
process.on('disconnect', () => process.exit(0))
