import { DiscoveryError } from '../errors/discovery-error.js'
import { HttpError } from '../errors/http-error.js'
import { type JsonRecord, parseJsonObjectBody } from '../http/json.js'
import { isSuccessStatus } from '../http/oauth-exchange.js'
import { sendRequest } from '../http/request.js'
import { safeUrl } from '../http/safe-url.js'
import type { TransportOptions } from '../http/transport.js'
import { lazyImport } from '../loading/lazy-import.js'

const discoveryWarnings = lazyImport(() => import('./discovery-warnings.js'))

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
    const { logger } = request.transport
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? ''
    if (logger !== undefined && !/^application\/([\w.-]+\+)?json$/i.test(mediaType)) {
      // Tolerated, since the body decides; the warning's code loads only for such a server.
      const { warnOnMislabelledJson } = await discoveryWarnings()
      warnOnMislabelledJson(mediaType, `${request.label}: ${endpoint}`, logger)
    }
    return document
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw failure(error.message, error.status, error)
  }
}
