import { base64Decode, base64Encode } from '../../crypto/base64.js'
import type { FetchLike } from '../../http/transport.js'
import { storeKey } from '../../stores/key-value-store.js'
import { type ParsedCertificate, parseCertificate } from '../certificate.js'
import { readCaIssuersCertificates } from './ca-issuers.js'
import { keepValue, type RevocationCacheAccess, readKept } from './revocation-cache-access.js'
import { fetchRevocationDocument } from './revocation-document.js'

/**
 * The longest a `caIssuers` document is kept: one day. CA certificates live for years, but a CA
 * may publish a renewed or re-keyed certificate at the same URL; a day bounds how long a
 * replaced certificate is served from the cache while a fleet still fetches each URL at most
 * once a day.
 */
export const maxCaIssuersTtlSeconds = 24 * 60 * 60

/**
 * The largest `caIssuers` document kept: 128 KiB of certificates. A CA publishes its own
 * certificate or a small bundle at that URL; the URL is read from a certificate not yet verified,
 * so a larger document (up to the 10 MiB fetch cap) is used for the validation at hand but never
 * written to the cache, which a fleet shares and such a server could otherwise fill.
 */
export const maxKeptCaIssuersBytes = 128 * 1024

/** Where {@link caIssuersCertificates} keeps documents and shares fetches, and how it fetches. */
export interface CaIssuersSource extends RevocationCacheAccess {
  readonly inFlight: Map<string, Promise<readonly Uint8Array[]>>
  readonly fetch?: FetchLike | undefined
  readonly timeoutMs?: number | undefined
}

/**
 * The DER certificates at an AIA `caIssuers` URL: those kept in `source.cache`
 * (`fhir-auth:ca-issuers:<url>`, the DER certificates in base64 separated by commas), else
 * fetched (DER or PKCS#7 certs-only; concurrent callers share one fetch per URL) and kept for
 * {@link maxCaIssuersTtlSeconds}, never past the earliest `notAfter` among them, when they
 * total at most {@link maxKeptCaIssuersBytes}. A kept value
 * that does not read back as certificates is fetched again. Nothing here is trusted: the path
 * policy verifies what it appends like any other certificate of the chain, so a rewritten entry
 * can at worst leave the path incomplete.
 *
 * A store that fails is a miss when read and only logged when written ({@link readKept},
 * {@link keepValue}).
 *
 * @throws HttpError, `RevocationDocumentStatusError` or CryptoError `invalid-certificate` when
 *   the fetch or the body fails (nothing is kept then).
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.2.1
 */
export async function caIssuersCertificates(
  source: CaIssuersSource,
  url: string,
): Promise<readonly Uint8Array[]> {
  const key = storeKey('ca-issuers', url)
  const kept = readCertificates(await readKept(source, key, url, what))
  if (kept !== undefined) return kept.map((certificate) => certificate.der)
  const pending = source.inFlight.get(url)
  if (pending !== undefined) return pending
  const fetching = (async () => {
    const body = await fetchRevocationDocument({
      url,
      accept: 'application/pkix-cert, application/pkcs7-mime',
      fetch: source.fetch,
      timeoutMs: source.timeoutMs,
    })
    const certificates = readCaIssuersCertificates(body)
    await keep(source, key, url, certificates)
    return certificates
  })()
  source.inFlight.set(url, fetching)
  try {
    return await fetching
  } finally {
    if (source.inFlight.get(url) === fetching) source.inFlight.delete(url)
  }
}

/** What the cache keeps at a `caIssuers` URL, for log lines. */
const what = 'caIssuers certificates'

function readCertificates(stored: unknown): ParsedCertificate[] | undefined {
  if (typeof stored !== 'string') return undefined
  // An empty value or entry is no certificate either: parseCertificate refuses it below.
  const entries = stored.split(',')
  try {
    return entries.map((entry) => parseCertificate(base64Decode(entry) ?? new Uint8Array()))
  } catch {
    return undefined
  }
}

async function keep(
  source: RevocationCacheAccess,
  key: string,
  url: string,
  certificates: readonly Uint8Array[],
): Promise<void> {
  const bytes = certificates.reduce((total, der) => total + der.byteLength, 0)
  if (bytes > maxKeptCaIssuersBytes) return
  let notAfter = Number.POSITIVE_INFINITY
  for (const der of certificates) {
    try {
      notAfter = Math.min(notAfter, parseCertificate(der).notAfter.getTime())
    } catch {
      // Not a certificate: the path policy skips it; nothing is kept.
      return
    }
  }
  const ttlSeconds = Math.min(maxCaIssuersTtlSeconds, (notAfter - Date.now()) / 1000)
  if (certificates.length === 0 || !(ttlSeconds > 0)) return
  const value = certificates.map((der) => base64Encode(der)).join(',')
  await keepValue(source, key, url, what, value, ttlSeconds)
}
