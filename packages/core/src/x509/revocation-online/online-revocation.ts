import { base64Decode, base64Encode } from '../../crypto/base64.js'
import { defaultTimeoutMs, type FetchLike } from '../../http/transport.js'
import type { KeyValueStore } from '../../stores/key-value-store.js'
import { storeKey } from '../../stores/key-value-store.js'
import { crlDer } from '../certificate-der.js'
import { type ParsedCrl, parseCrl } from '../crl.js'
import { caIssuersCertificates } from './ca-issuers-cache.js'
import { askOcsp, type OcspExchange, type OcspJudge } from './ocsp-answers.js'
import type { OcspCertificateId } from './ocsp-request.js'
import type { OcspStatus } from './ocsp-status.js'
import { fetchRevocationDocument } from './revocation-document.js'
import { revocationMemory } from './revocation-memory.js'
import { timeLimitedStore } from './time-limited-store.js'

/**
 * Where a chain's revocation information comes from when the caller's CRLs have none for a
 * certificate: CRLs from the certificate's distribution points, kept in a cache until their
 * `nextUpdate`, and OCSP responders. Made by {@link createOnlineRevocation}; the path policy decides which URLs may
 * be asked and whether what comes back is usable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export interface OnlineRevocation {
  /**
   * The CRL at `url` that `usable` accepts: the cached one when `usable` accepts it, else one
   * fetched (concurrent callers share one fetch per URL) and, when the fetching caller's
   * `usable` accepts it, kept until its `nextUpdate`. The CRL returned may still be unusable
   * for this caller; `usable` says.
   *
   * @throws HttpError when the fetch fails (status other than 200 is `HttpError` too);
   *   CryptoError `invalid-crl` when the body is not a CRL.
   */
  crl(url: string, at: Date, usable: (crl: ParsedCrl) => Promise<boolean>): Promise<ParsedCrl>
  /**
   * The OCSP status of the certificate `certificateId` names from the responder at `url`: an
   * answer kept in the cache that `judge` (without a nonce) still takes, else a POST
   * (`application/ocsp-request`) of a request with a fresh 32-octet nonce, judged with that
   * nonce; concurrent callers for one URL and certificate share one request. A `good` or
   * `revoked` answer is kept (the responder's signed DER) until its `nextUpdate`; `unknown` and
   * refused answers never are.
   *
   * @throws HttpError when the request fails; CryptoError `invalid-crl` when the body is not an
   *   OCSP response.
   * @see https://www.rfc-editor.org/rfc/rfc6960#appendix-A.1
   * @see https://www.rfc-editor.org/rfc/rfc8954
   */
  ocsp(
    url: string,
    certificateId: OcspCertificateId,
    at: Date,
    judge: OcspJudge,
  ): Promise<OcspStatus>
  /**
   * The DER certificates at an AIA `caIssuers` URL (DER or PKCS#7 certs-only), kept in the
   * cache for a day at most (never past their earliest `notAfter`), so fetched once per URL
   * per cache lifetime (a failed fetch is tried again later).
   *
   * @throws HttpError or CryptoError `invalid-certificate` when the fetch or the body fails.
   */
  certificates(url: string): Promise<readonly Uint8Array[]>
}

/** Options of {@link createOnlineRevocation}. */
export interface OnlineRevocationOptions {
  /**
   * Where fetched CRLs and OCSP answers are kept until their `nextUpdate`, and `caIssuers`
   * certificates for a day; a shared store (Redis) lets a fleet share them. Default: a memory
   * store of this object's own. Each call may take at most `timeoutMs`; then it counts as a
   * store failure (no answer from that source).
   */
  readonly cache?: KeyValueStore | undefined
  /** The `fetch` requests go through; default `globalThis.fetch`. */
  readonly fetch?: FetchLike | undefined
  /** Time limit of one fetch, redirects and body included (the transport's). */
  readonly timeoutMs?: number | undefined
}

/** What one cache shares in this process: fetches in flight, and the last CRL parsed per URL. */
interface SharedState {
  readonly inFlight: Map<string, Promise<ParsedCrl>>
  readonly ocspInFlight: Map<string, Promise<OcspExchange>>
  readonly caIssuersInFlight: Map<string, Promise<readonly Uint8Array[]>>
  readonly parsed: Map<string, { readonly stored: string; readonly crl: ParsedCrl }>
}

// Keyed by the cache object, so every client and call in this process that shares a store also
// shares its fetches in flight (fifty discoveries on a cold cache make one request per URL).
const sharedStates = new WeakMap<KeyValueStore, SharedState>()

function sharedStateOf(cache: KeyValueStore): SharedState {
  let state = sharedStates.get(cache)
  if (state === undefined) {
    state = {
      inFlight: new Map(),
      ocspInFlight: new Map(),
      caIssuersInFlight: new Map(),
      parsed: new Map(),
    }
    sharedStates.set(cache, state)
  }
  return state
}

/** Most entries of the parsed-CRL memo per cache: one per distribution point in use. */
const maxParsedEntries = 256

/**
 * Makes the {@link OnlineRevocation} a chain validation fetches CRLs through: GET (HTTP or
 * HTTPS, `Accept: application/pkix-crl`) within the transport's timeout and a 10 MiB cap, DER or
 * PEM bodies, kept in `cache` (base64 DER, `fhir-auth:crl:<url>`) until the CRL's
 * `nextUpdate`; a CRL without `nextUpdate` is not kept. OCSP answers are kept there too (the
 * signed response, `fhir-auth:ocsp:<CertID>@<url>`, judged again on every read) until their
 * `nextUpdate`, and `caIssuers` certificates (`fhir-auth:ca-issuers:<url>`) for a day.
 *
 * @example
 * ```ts
 * const revocation = createOnlineRevocation({ cache: redisStore({ client }) })
 * await backend.verifyCertificateChain({ chain, trustAnchors, crls: [], at: new Date(), revocation })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export function createOnlineRevocation(options: OnlineRevocationOptions = {}): OnlineRevocation {
  const store = options.cache ?? revocationMemory(maxParsedEntries)
  const state = sharedStateOf(store)
  const transport = { fetch: options.fetch, timeoutMs: options.timeoutMs }
  const cache = timeLimitedStore(store, options.timeoutMs ?? defaultTimeoutMs)

  const cached = async (url: string): Promise<ParsedCrl | undefined> => {
    const stored = await cache.get(storeKey('crl', url))
    if (typeof stored !== 'string') return undefined
    const memo = state.parsed.get(url)
    if (memo?.stored === stored) return memo.crl
    try {
      const crl = parseCrl(base64Decode(stored) ?? new Uint8Array())
      remember(state, url, stored, crl)
      return crl
    } catch {
      // Not a CRL (another writer, a truncated value): fetched again below.
      return undefined
    }
  }

  const keep = async (url: string, crl: ParsedCrl, at: Date): Promise<void> => {
    if (crl.nextUpdate === undefined) return
    const ttlSeconds = (crl.nextUpdate.getTime() - at.getTime()) / 1000
    if (ttlSeconds <= 0) return
    const stored = base64Encode(crl.der)
    await cache.set(storeKey('crl', url), stored, ttlSeconds)
    remember(state, url, stored, crl)
  }

  return {
    certificates: (url) =>
      caIssuersCertificates({ ...transport, cache, inFlight: state.caIssuersInFlight }, url),
    ocsp: (url, certificateId, at, judge) =>
      askOcsp({ ...transport, cache, inFlight: state.ocspInFlight }, url, certificateId, at, judge),
    async crl(url, at, usable) {
      const fromCache = await cached(url)
      if (fromCache !== undefined && (await usable(fromCache))) return fromCache
      const pending = state.inFlight.get(url)
      if (pending !== undefined) return pending
      const fetching = (async () => {
        const body = await fetchRevocationDocument({
          ...transport,
          url,
          accept: 'application/pkix-crl',
        })
        const crl = parseCrl(crlDer(body))
        if (await usable(crl)) await keep(url, crl, at)
        return crl
      })()
      state.inFlight.set(url, fetching)
      try {
        return await fetching
      } finally {
        if (state.inFlight.get(url) === fetching) state.inFlight.delete(url)
      }
    },
  }
}

function remember(state: SharedState, url: string, stored: string, crl: ParsedCrl): void {
  state.parsed.delete(url)
  if (state.parsed.size >= maxParsedEntries) {
    const oldest = state.parsed.keys().next().value
    if (oldest !== undefined) state.parsed.delete(oldest)
  }
  state.parsed.set(url, { stored, crl })
}
