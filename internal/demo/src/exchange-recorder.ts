/**
 * A `fetch` for the library that keeps a copy of every exchange, so the transcript shows what
 * really went over the wire rather than what the demo expects the library to send.
 */
import type { FetchLike } from '@fhir-auth/core'

/** One HTTP request and its response (or the failure that replaced it). */
export interface RecordedExchange {
  readonly method: string
  readonly url: string
  /** Lower-case header names. */
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly requestBody: string | undefined
  readonly status: number | undefined
  readonly responseHeaders: Headers | undefined
  readonly responseBody: string | undefined
  /** The transport failure's class name, when there was no response. */
  readonly failure: string | undefined
}

/** Statuses whose responses cannot carry a body (the `Response` constructor refuses one). */
const bodilessStatuses = new Set([101, 103, 204, 205, 304])

/** Records the exchanges made through {@link fetch}. */
export class ExchangeRecorder {
  readonly #exchanges: RecordedExchange[] = []
  readonly #inner: FetchLike
  readonly #onExchange: (exchange: RecordedExchange) => void

  /**
   * @param onExchange told about each exchange once it completes (the secret ledger harvests here).
   * @param inner the real transport; default `globalThis.fetch`.
   */
  constructor(onExchange: (exchange: RecordedExchange) => void, inner?: FetchLike) {
    this.#onExchange = onExchange
    this.#inner = inner ?? ((url, init) => globalThis.fetch(url, init))
  }

  /** Every exchange so far, oldest first. */
  get exchanges(): readonly RecordedExchange[] {
    return this.#exchanges
  }

  /**
   * The `fetch` to give the library. It reads each response body completely and hands the
   * library an identical copy, so the recorded body is exactly what the library parsed.
   */
  readonly fetch: FetchLike = async (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase()
    const requestHeaders = normaliseHeaders(init.headers)
    const requestBody = typeof init.body === 'string' ? init.body : undefined
    let response: Response
    try {
      response = await this.#inner(url, init)
    } catch (error) {
      this.#record({
        method,
        url,
        requestHeaders,
        requestBody,
        status: undefined,
        responseHeaders: undefined,
        responseBody: undefined,
        failure: error instanceof Error ? error.name : 'failure',
      })
      throw error
    }
    const responseBody = await response.text()
    this.#record({
      method,
      url,
      requestHeaders,
      requestBody,
      status: response.status,
      responseHeaders: response.headers,
      responseBody,
      failure: undefined,
    })
    return new Response(bodilessStatuses.has(response.status) ? null : responseBody, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }

  #record(exchange: RecordedExchange): void {
    this.#exchanges.push(exchange)
    this.#onExchange(exchange)
  }
}

function normaliseHeaders(headers: RequestInit['headers']): Record<string, string> {
  const result: Record<string, string> = {}
  new Headers(headers).forEach((value, name) => {
    result[name.toLowerCase()] = value
  })
  return result
}
