import { sendRequest } from '../../http/request.js'
import type { FetchLike } from '../../http/transport.js'
import { RevocationDocumentStatusError } from './revocation-document-status.js'

/**
 * The size cap of a fetched CRL, OCSP response or CA certificate: 10 MiB. Large CAs publish CRLs
 * of a few MiB; anything larger is refused before it is read whole.
 */
export const maxRevocationDocumentBytes = 10 * 1024 * 1024

/** One fetch of a signed document: a CRL, an OCSP response, a CA certificate. */
export interface RevocationDocumentRequest {
  readonly url: string
  /** The media type asked for (`Accept`). */
  readonly accept: string
  /** A POST body (an OCSP request) with its content type; a GET without one. */
  readonly body?: { readonly contentType: string; readonly data: Uint8Array } | undefined
  readonly fetch?: FetchLike | undefined
  readonly timeoutMs?: number | undefined
}

/**
 * Fetches a document whose own signature is its check, so plain HTTP is allowed to any host
 * (RFC 5280 §4.2.1.13, RFC 6960 Appendix A: CRLs and OCSP travel over HTTP): the library's
 * transport with its timeout, redirects and a {@link maxRevocationDocumentBytes} cap.
 *
 * @returns the body bytes of a `200` answer.
 * @throws HttpError for a transport failure or a body over the cap;
 *   {@link RevocationDocumentStatusError} for a status other than 200.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export async function fetchRevocationDocument(
  request: RevocationDocumentRequest,
): Promise<Uint8Array> {
  const response = await sendRequest({
    method: request.body === undefined ? 'GET' : 'POST',
    url: request.url,
    accept: request.accept,
    bytes: request.body,
    responseBody: 'bytes',
    allowPlainHttp: true,
    maxResponseBytes: maxRevocationDocumentBytes,
    fetch: request.fetch,
    timeoutMs: request.timeoutMs,
  })
  if (response.status !== 200) {
    throw new RevocationDocumentStatusError(response.status)
  }
  return response.bodyBytes ?? new Uint8Array()
}
