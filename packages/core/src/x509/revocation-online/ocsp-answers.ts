import { base64Decode, base64Encode } from '../../crypto/base64.js'
import type { FetchLike } from '../../http/transport.js'
import { storeKey } from '../../stores/key-value-store.js'
import { encodeOcspRequest, type OcspCertificateId, ocspRequestNonce } from './ocsp-request.js'
import { type ParsedOcspResponse, parseOcspResponse } from './ocsp-response.js'
import { type OcspStatus, ocspClockSkewMs, singleResponseFor } from './ocsp-status.js'
import { keepValue, type RevocationCacheAccess, readKept } from './revocation-cache-access.js'
import { fetchRevocationDocument } from './revocation-document.js'

/**
 * Judges one OCSP response for the caller (signature, CertID, freshness at the caller's time).
 * `nonce` is the nonce the request carried; `undefined` for an answer read from the cache.
 */
export type OcspJudge = (
  response: ParsedOcspResponse,
  nonce: Uint8Array | undefined,
) => Promise<OcspStatus>

/** One OCSP exchange in flight: the parsed response and the nonce its request carried. */
export interface OcspExchange {
  readonly der: Uint8Array
  readonly response: ParsedOcspResponse
  readonly nonce: Uint8Array
}

/** Where {@link askOcsp} keeps answers and shares exchanges, and how it sends requests. */
export interface OcspAnswerSource extends RevocationCacheAccess {
  readonly inFlight: Map<string, Promise<OcspExchange>>
  readonly fetch?: FetchLike | undefined
  readonly timeoutMs?: number | undefined
}

/**
 * The store key of an answer: the responder URL and the CertID (issuer name hash, issuer key
 * hash, serial number, in hex), so that one certificate asked of two responders is two entries.
 */
export function ocspStoreKey(url: string, id: OcspCertificateId): string {
  const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
  const certificate = [id.issuerNameHash, id.issuerKeyHash, id.serialNumber]
    .map((bytes) => hex(bytes).join(''))
    .join(':')
  return storeKey('ocsp', `${certificate}@${url}`)
}

/**
 * The status of the certificate `id` names from the OCSP responder at `url`:
 *
 * 1. an answer kept in `source.cache`, when `judge` still takes it for an answer. What is kept
 *    is the responder's signed DER, judged again on every read (signature, CertID, freshness),
 *    so a store entry someone rewrote (another certificate's `good`, flipped bytes, an answer
 *    gone stale) is no answer and the responder is asked;
 * 2. else a POST of a request with a fresh nonce; concurrent callers for one URL and CertID
 *    share it, each judging the response with the nonce sent. A `good` or `revoked` answer is
 *    kept until the SingleResponse's `nextUpdate`; an answer without `nextUpdate` only while
 *    {@link ocspStatus} would take it anyway (`thisUpdate` + {@link ocspClockSkewMs}): RFC 6960
 *    §4.2.2.1 says newer information is then always available, so it is not kept past the
 *    window in which it counts as fresh. `unknown` and every refusal are never kept.
 *
 * A kept answer carries no proof of recency beyond its signed times: an entry replaced by an
 * older answer the responder signed for the same certificate is taken while that answer is
 * fresh, as it would be from a responder that does not echo nonces.
 *
 * A store that fails is a miss when read and only logged when written ({@link readKept},
 * {@link keepValue}): the answer just judged is still the answer.
 *
 * @throws HttpError or `RevocationDocumentStatusError` when the request fails; CryptoError
 *   `invalid-crl` when the body is not an OCSP response.
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.2.2.1
 * @see https://www.rfc-editor.org/rfc/rfc5019#section-6
 */
export async function askOcsp(
  source: OcspAnswerSource,
  url: string,
  id: OcspCertificateId,
  at: Date,
  judge: OcspJudge,
): Promise<OcspStatus> {
  const key = ocspStoreKey(url, id)
  const kept = await keptAnswer(source, key, url, judge)
  if (kept !== undefined) return kept
  const pending = source.inFlight.get(key)
  if (pending !== undefined) {
    const shared = await pending
    return judge(shared.response, shared.nonce)
  }
  const exchanging = exchange(source, url, id)
  source.inFlight.set(key, exchanging)
  try {
    const { der, response, nonce } = await exchanging
    const status = await judge(response, nonce)
    if (status.status !== 'no-answer') await keep(source, key, url, der, response, id, at)
    return status
  } finally {
    if (source.inFlight.get(key) === exchanging) source.inFlight.delete(key)
  }
}

async function keptAnswer(
  source: RevocationCacheAccess,
  key: string,
  url: string,
  judge: OcspJudge,
): Promise<OcspStatus | undefined> {
  const stored = await readKept(source, key, url, 'OCSP answer')
  if (typeof stored !== 'string') return undefined
  const der = base64Decode(stored)
  if (der === undefined) return undefined
  let response: ParsedOcspResponse
  try {
    response = parseOcspResponse(der)
  } catch {
    // Not an OCSP response (another writer, a truncated value): asked again.
    return undefined
  }
  const status = await judge(response, undefined)
  return status.status === 'no-answer' ? undefined : status
}

async function exchange(
  source: OcspAnswerSource,
  url: string,
  id: OcspCertificateId,
): Promise<OcspExchange> {
  const nonce = ocspRequestNonce()
  const der = await fetchRevocationDocument({
    url,
    accept: 'application/ocsp-response',
    body: { contentType: 'application/ocsp-request', data: encodeOcspRequest(id, nonce) },
    fetch: source.fetch,
    timeoutMs: source.timeoutMs,
  })
  return { der, response: parseOcspResponse(der), nonce }
}

async function keep(
  source: RevocationCacheAccess,
  key: string,
  url: string,
  der: Uint8Array,
  response: ParsedOcspResponse,
  id: OcspCertificateId,
  at: Date,
): Promise<void> {
  const single = singleResponseFor(response, id)
  if (single === undefined) return
  const until = single.nextUpdate?.getTime() ?? single.thisUpdate.getTime() + ocspClockSkewMs
  const ttlSeconds = (until - at.getTime()) / 1000
  if (ttlSeconds <= 0) return
  await keepValue(source, key, url, 'OCSP answer', base64Encode(der), ttlSeconds)
}
