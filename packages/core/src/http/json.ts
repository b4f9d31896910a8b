import { HttpError } from '../errors/http-error.js'
import { isJsonObject, type JsonRecord } from './json-object.js'
import type { HttpResponse } from './request.js'
import { safeUrl } from './safe-url.js'

// In a file of its own: configuration checks use it, and must not load the response readers.
export { isJsonObject, type JsonRecord } from './json-object.js'

/**
 * Parses a response body as JSON, whatever its content type (SMART discovery SHALL be JSON
 * "regardless of Accept", and servers get content types wrong; the body decides).
 *
 * @param redact - applied to the content type before the message quotes it: a flow passes its
 *   request secrets' redaction, since a server may echo them in that header.
 * @throws HttpError `invalid-json` naming the status and content type.
 */
export function parseJsonBody(
  response: HttpResponse,
  redact: (text: string) => string = (text) => text,
): unknown {
  try {
    return JSON.parse(response.bodyText)
  } catch {
    const type = mediaTypeOf(response, redact)
    throw new HttpError({
      reason: 'invalid-json',
      url: safeUrl(response.url),
      status: response.status,
      message: `response from ${safeUrl(response.url)} (HTTP ${response.status}, ${type}) is not valid JSON`,
    })
  }
}

/**
 * The media type of a response as messages quote it: without parameters, where a server may
 * put anything. `redact` sees the whole header before it is cut, so a request secret echoed
 * across the `;` leaves no fragment (ADR 0002: redaction before any truncation).
 */
function mediaTypeOf(response: HttpResponse, redact: (text: string) => string): string {
  return (
    redact(response.headers.get('content-type') ?? '')
      .split(';')[0]
      ?.trim() || 'no content type'
  )
}

/**
 * Parses a response body as a JSON object (`redact` as for {@link parseJsonBody}).
 *
 * @throws HttpError `invalid-json` or `not-an-object`.
 */
export function parseJsonObjectBody(
  response: HttpResponse,
  redact?: (text: string) => string,
): JsonRecord {
  const value = parseJsonBody(response, redact)
  if (!isJsonObject(value)) {
    throw new HttpError({
      reason: 'not-an-object',
      url: safeUrl(response.url),
      status: response.status,
      message: `response from ${safeUrl(response.url)} (HTTP ${response.status}) is JSON but not an object`,
    })
  }
  return value
}

/**
 * Parses a body as JSON when it is JSON, else `undefined`: for error responses, where a
 * non-JSON body (an HTML 502 page) is normal and only the status is left to report.
 */
export function tryParseJsonBody(response: HttpResponse): unknown {
  try {
    return JSON.parse(response.bodyText)
  } catch {
    return undefined
  }
}
