import type { Client, ClientConfigInput, ClientOptions } from '@fhir-auth/client'

/** One operation of `Client` in the abort-safety run, on a client built for each case. */
export interface AbortOperation {
  readonly name: string
  readonly protocol: 'smart' | 'udap'
  readonly config: ClientConfigInput
  readonly options: ClientOptions
  /** How the call ends with no abort and a healthy server: proves the case reaches real work. */
  readonly unaborted: 'fulfilled' | 'ERR_TOKEN'
  /**
   * The operation with the case's signal. Setup it needs (a sign-in, a kept launch) happens
   * inside, through other clients, so the case's `fetch` counts the operation's requests only.
   */
  readonly call: (client: Client, signal: AbortSignal | undefined) => Promise<unknown>
}
