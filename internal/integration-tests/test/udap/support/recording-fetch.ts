/**
 * A `fetch` for `ClientOptions.fetch` that passes every request to the real `fetch` and keeps
 * what came back, so a test can see HTTP statuses that `Client` does not return (201 for a new
 * registration, 200 for a modification).
 */
import type { FetchLike } from '@fhir-auth/client'

/** One request the client made and the status it got. */
export interface RecordedExchange {
  readonly method: string
  readonly url: string
  readonly status: number
}

/** A recording `fetch` and what it recorded so far. */
export interface RecordingFetch {
  readonly fetch: FetchLike
  readonly exchanges: readonly RecordedExchange[]
}

/**
 * Creates a recording `fetch`. `rewrite`, when given, may replace a response before the client
 * sees it (a man in the middle for tests of what the client trusts).
 */
export function createRecordingFetch(
  rewrite?: (url: string, response: Response) => Promise<Response>,
): RecordingFetch {
  const exchanges: RecordedExchange[] = []
  const recordingFetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init)
    exchanges.push({ method: init.method ?? 'GET', url, status: response.status })
    return rewrite === undefined ? response : rewrite(url, response)
  }
  return {
    fetch: recordingFetch,
    get exchanges() {
      return [...exchanges]
    },
  }
}
