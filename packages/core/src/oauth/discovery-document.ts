import { DiscoveryError } from '../errors/discovery-error.js'
import { HttpError } from '../errors/http-error.js'
import { type JsonRecord, parseJsonObjectBody } from '../http/json.js'
import { isSuccessStatus } from '../http/oauth-exchange.js'
import { type HttpResponse, sendRequest } from '../http/request.js'
import { safeUrl } from '../http/safe-url.js'
import type { TransportOptions } from '../http/transport.js'

/** What {@link fetchDiscoveryDocument} needs. */
export interface DiscoveryDocumentRequest {
  /** The discovery URL (`…/.well-known/smart-configuration`, `…/.well-known/udap?community=…`). */
  readonly url: string
  /** What messages call the exchange: `SMART discovery`, `UDAP discovery`. */
  readonly label: string
  readonly transport: TransportOptions
  /**
   * What a status means when the protocol gives it a meaning of its own (UDAP: 404 is "no UDAP",
   * 204 "community not recognised"); `undefined` leaves the status to the general rule.
   */
  readonly statusProblem?: ((status: number) => string | undefined) | undefined
}

/**
 * Fetches a discovery document: one GET under the core transport policy (HTTPS, timeout, size
 * cap, redirects only to acceptable URLs), parsed as a JSON object whatever its content type
 * (SMART: the response SHALL be JSON "regardless of Accept"; servers mislabel). Every failure
 * is a `DiscoveryError` whose message starts `<label> failed for <url without query>:`.
 *
 * @throws DiscoveryError with `endpoint` (the URL without query) and `status` when there was a
 *   response: a transport failure (`cause` = `HttpError`), a non-2xx status or one that
 *   `statusProblem` names, a body that is not a JSON object (`cause` = `HttpError`).
 * @internal
 */
export async function fetchDiscoveryDocument(
  request: DiscoveryDocumentRequest,
): Promise<JsonRecord> {
  const endpoint = safeUrl(request.url)
  const failure = (problem: string, status: number | undefined, cause?: HttpError) =>
    new DiscoveryError(
      { endpoint, status, message: `${request.label} failed for ${endpoint}: ${problem}` },
      cause === undefined ? undefined : { cause },
    )
  try {
    const response = await sendRequest({ ...request.transport, method: 'GET', url: request.url })
    const { status } = response
    const problem =
      request.statusProblem?.(status) ?? (isSuccessStatus(response) ? undefined : `HTTP ${status}`)
    if (problem !== undefined) throw failure(problem, status)
    const document = parseJsonObjectBody(response)
    warnOnMislabelledJson(response, request)
    return document
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw failure(error.message, error.status, error)
  }
}

/**
 * One warning when a discovery document that parsed as JSON came with another content type
 * (`text/plain`, none): tolerated, since the body decides, but named so that the server's
 * operators can be told.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.2 RFC 8414 §3.2 (`application/json`)
 */
function warnOnMislabelledJson(response: HttpResponse, request: DiscoveryDocumentRequest): void {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
  if (mediaType === 'application/json' || /^application\/[\w.-]+\+json$/.test(mediaType ?? ''))
    return
  const served = mediaType
    ? `served as ${/^[\w.+-]+\/[\w.+-]+$/.test(mediaType) ? mediaType : 'an unreadable content type'}`
    : 'served with no content type'
  request.transport.logger?.warn(
    `${request.label}: ${safeUrl(request.url)} ${served}, not application/json; read as JSON`,
    { event: 'discovery.content_type' },
  )
}
