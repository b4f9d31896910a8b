/**
 * What every flow works with: the transcript, the recording `fetch`, the logger and the secret
 * ledger, plus the moves a flow makes: create a client, run a call and show its exchanges, run
 * a call that must be refused, and check something.
 */
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  FhirAuthError,
} from '@fhir-auth/client'
import { DemoFailure } from './demo-failure.js'
import { DemoLogger } from './demo-logger.js'
import { displayValue } from './display-values.js'
import { ExchangeRecorder, type RecordedExchange } from './exchange-recorder.js'
import { type ExchangeViewOptions, showExchange } from './exchange-view.js'
import { describeFailure } from './failure-text.js'
import { harvestSecrets } from './secret-harvest.js'
import type { SecretLedger } from './secret-ledger.js'
import type { Transcript, TranscriptRow } from './transcript.js'

/** How exchanges of one call are shown: the same for all, or chosen per exchange. */
export type ExchangeView =
  | ExchangeViewOptions
  | ((exchange: RecordedExchange) => ExchangeViewOptions)

/** What a flow chooses of a client's options; the context adds the rest. */
export type DemoClientOptions = Pick<ClientOptions, 'protocol' | 'clientType' | 'flow'>

/** The per-request time limit given to every demo client. */
const requestTimeoutMs = 10_000

/** Configuration rows repeated from the previous client are folded when there are this many. */
const minimumFoldedRows = 2

/** The shared working parts of one demo run. */
export class DemoContext {
  readonly transcript: Transcript
  readonly ledger: SecretLedger
  readonly logger: DemoLogger
  readonly recorder: ExchangeRecorder
  /** Requests already shown in full (method, URL, credentials): repeats get one line. */
  readonly #shownRequests = new Set<string>()
  /** How the running call shows its exchanges; exchanges are shown as they complete. */
  #view: ExchangeView = {}
  /** The configuration rows of the last client shown, to fold repeated ones. */
  #previousConfig = new Map<string, string>()

  constructor(transcript: Transcript, ledger: SecretLedger) {
    this.transcript = transcript
    this.ledger = ledger
    this.logger = new DemoLogger(transcript)
    this.recorder = new ExchangeRecorder((exchange) => {
      // Harvest first: the lines about this exchange are scrubbed of its secrets too.
      harvestSecrets(exchange, ledger)
      this.#show(exchange)
    })
  }

  /** Options for `new Client`: the recording fetch, the transcript logger and a time limit. */
  clientOptions(options: DemoClientOptions = {}): ClientOptions {
    return {
      ...options,
      fetch: this.recorder.fetch,
      logger: this.logger,
      timeoutMs: requestTimeoutMs,
    }
  }

  /**
   * Creates a `Client` with {@link clientOptions} and shows the construction: the options and
   * the configuration as `client.config.toJSON()` gives it (secrets already redacted), with
   * rows unchanged since the previous client folded into one.
   */
  createClient(config: ClientConfigInput, options: DemoClientOptions = {}): Client {
    const client = new Client(config, this.clientOptions(options))
    const shownOptions = Object.entries(options)
      .map(([name, value]) => `${name}: '${String(value)}'`)
      .join(', ')
    this.transcript.call(`new Client(config${shownOptions === '' ? '' : `, { ${shownOptions} }`})`)
    const summary = client.config.toJSON()
    // issuer defaults to baseUrl; repeating it says nothing.
    if (summary.issuer === summary.baseUrl) delete summary.issuer
    const rows = Object.entries(summary).map(([name, value]) => ({
      name,
      value: displayValue(name, value),
    }))
    this.transcript.rows(this.#foldRepeatedRows(rows))
    this.#previousConfig = new Map(rows.map((row) => [row.name, row.value]))
    return client
  }

  /**
   * Prints `code`, runs `action` and shows every exchange it makes as it completes.
   *
   * @throws whatever `action` throws.
   */
  async call<T>(code: string, action: () => Promise<T>, view: ExchangeView = {}): Promise<T> {
    this.transcript.call(code)
    this.#view = view
    try {
      return await action()
    } finally {
      this.#view = {}
    }
  }

  /**
   * Prints `code`, runs `action`, which must fail with a fhir-auth error, and shows the
   * exchanges and the error (class, OAuth error or reason, message).
   *
   * @throws DemoFailure when `action` succeeds; the error itself when it is not a fhir-auth error.
   */
  async refusal(
    code: string,
    action: () => Promise<unknown>,
    view: ExchangeView = {},
  ): Promise<FhirAuthError> {
    let error: unknown
    try {
      await this.call(code, action, view)
    } catch (caught) {
      error = caught ?? new DemoFailure(`${code} failed with ${String(caught)}`)
    }
    if (error === undefined) throw new DemoFailure(`expected ${code} to be refused; it succeeded`)
    if (!FhirAuthError.isFhirAuthError(error)) throw error
    this.transcript.refused(describeFailure(error))
    return error
  }

  /** The HTTP status of the latest exchange, e.g. to tell 201 Created from 200 OK. */
  lastStatus(): number | undefined {
    return this.recorder.exchanges.at(-1)?.status
  }

  /**
   * Prints `text` as a check that held.
   *
   * @throws DemoFailure with `failure` when `condition` is false.
   */
  check(condition: boolean, text: string, failure: string): void {
    if (!condition) throw new DemoFailure(failure)
    this.transcript.ok(text)
  }

  #show(exchange: RecordedExchange): void {
    const options = typeof this.#view === 'function' ? this.#view(exchange) : this.#view
    const key = `${exchange.method} ${exchange.url} ${exchange.requestHeaders.authorization ?? ''}`
    const repeated = exchange.method === 'GET' && this.#shownRequests.has(key)
    showExchange(this.transcript, exchange, repeated ? { ...options, repeated } : options)
    this.#shownRequests.add(key)
  }

  #foldRepeatedRows(rows: readonly TranscriptRow[]): TranscriptRow[] {
    const repeated = rows.filter((row) => this.#previousConfig.get(row.name) === row.value)
    if (repeated.length < minimumFoldedRows) return [...rows]
    const names = repeated.map((row) => row.name).join(', ')
    return [
      ...rows.filter((row) => !repeated.includes(row)),
      { name: '…', value: `${names}: as above` },
    ]
  }
}
