import type { IncomingMessage, ServerResponse } from 'node:http'
import { type RecordedRequest, type RequestLog, recordRequest } from './recorded-request.js'
import { sendJson } from './responses.js'

/** Bodies larger than this are refused; oidc-provider itself stops at 56 KiB. */
export const maximumRequestBodyBytes = 1024 * 1024

/** The request body, or `undefined` when it exceeded {@link maximumRequestBodyBytes}. */
async function readRequestBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let received = 0
  for await (const chunk of request) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    received += bytes.length
    if (received > maximumRequestBodyBytes) return undefined
    chunks.push(bytes)
  }
  return Buffer.concat(chunks, received)
}

/** A request's URL and body, once {@link receiveRequest} read and recorded it. */
export interface ReceivedRequest {
  readonly url: URL
  readonly body: Buffer
  /** What was added to the request log. */
  readonly recorded: RecordedRequest
}

/**
 * Reads a request's body and records the request in `log`, as both sandboxes do first with
 * every request.
 *
 * @returns the request's URL (on `origin`) and body, or `undefined` once it answered 413 to a
 *   body over {@link maximumRequestBodyBytes}.
 */
export async function receiveRequest(
  request: IncomingMessage,
  response: ServerResponse,
  origin: string,
  log: RequestLog,
): Promise<ReceivedRequest | undefined> {
  const url = new URL(request.url ?? '/', origin)
  const body = await readRequestBody(request)
  if (body === undefined) {
    sendJson(response, 413, {
      error: 'invalid_request',
      error_description: 'request body too large',
    })
    return undefined
  }
  const recorded = recordRequest({
    method: request.method ?? 'GET',
    url,
    headers: request.headers,
    body,
  })
  log.add(recorded)
  return { url, body, recorded }
}
