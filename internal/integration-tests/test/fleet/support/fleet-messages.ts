/** The messages between the fleet test and its worker processes (over the IPC channel of `fork`). */

/** What a worker needs to act as one process of a fleet. */
export interface WorkerSetup {
  readonly type: 'setup'
  /** The worker's number, sent as the `x-fleet-worker` header of every request it makes. */
  readonly index: number
  readonly fhirBaseUrl: string
  readonly clientId: string
  readonly privateKeyPem: string
  readonly kid: string
  readonly scopes: readonly string[]
  readonly redisUrl: string
  /** The fleet's shared `encryptionKey`, hex. */
  readonly encryptionKeyHex: string
  /** The client's request timeout: the lock's time to live. */
  readonly timeoutMs: number
}

/** Make `calls` `accessToken()` calls, `concurrency` at a time, with the clock moved ahead. */
export interface WorkerRun {
  readonly type: 'run'
  readonly calls: number
  readonly concurrency: number
  /** Added to the real time by the client's injected `now`. */
  readonly clockOffsetMs: number
}

/** What one run produced in one worker. */
export interface RunReport {
  readonly type: 'done'
  readonly index: number
  /** How many calls returned a token. */
  readonly succeeded: number
  /** The distinct access tokens the calls returned. */
  readonly tokens: readonly string[]
  /** `name: message` of every failed call. */
  readonly failures: readonly string[]
  /** The `event` of every warning the library logged. */
  readonly warnings: readonly string[]
}

export type FromWorker = { readonly type: 'ready'; readonly index: number } | RunReport

/** The header that tells the server which worker sent a request. */
export const workerHeader = 'x-fleet-worker'

/** What a session worker (session-fleet-worker.ts) needs: one session id on the shared Redis. */
export interface SessionWorkerSetup {
  readonly type: 'setup'
  readonly index: number
  readonly fhirBaseUrl: string
  readonly clientId: string
  readonly redirectUri: string
  readonly scopes: readonly string[]
  readonly redisUrl: string
  /** The root nodes of a Redis Cluster: the worker connects with `createCluster` instead. */
  readonly clusterUrls?: readonly string[]
  readonly encryptionKeyHex: string
  readonly timeoutMs: number
  /** The id `sessions.save` gave: every worker opens it. */
  readonly sessionId: string
  /** The FHIR resource each call reads with `session.fetch`, relative to the base URL. */
  readonly resource: string
}
