import { base64Decode, base64Encode } from '../../crypto/base64.js'
import type { FetchLike } from '../../http/transport.js'
import type { KeyValueStore } from '../../stores/key-value-store.js'
import { storeKey } from '../../stores/key-value-store.js'
import { crlDer } from '../certificate-der.js'
import { type ParsedCrl, parseCrl } from '../crl.js'
import { readCaIssuersCertificates } from './ca-issuers.js'
import { fetchRevocationDocument } from './revocation-document.js'
import { revocationMemory } from './revocation-memory.js'

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
   * POSTs a DER OCSP request to `url` (`application/ocsp-request`) and returns the response
   * body; concurrent identical requests share one.
   *
   * @throws HttpError when the request fails.
   * @see https://www.rfc-editor.org/rfc/rfc6960#appendix-A.1
   */
  ocsp(url: string, request: Uint8Array): Promise<Uint8Array>
  /**
   * The DER certificates at an AIA `caIssuers` URL (DER or PKCS#7 certs-only), fetched once per
   * URL for as long as this process shares the cache (a failed fetch is tried again later).
   *
   * @throws HttpError or CryptoError `invalid-certificate` when the fetch or the body fails.
   */
  certificates(url: string): Promise<readonly Uint8Array[]>
}

/** Options of {@link createOnlineRevocation}. */
export interface OnlineRevocationOptions {
  /**
   * Where fetched CRLs are kept until their `nextUpdate`; a shared store (Redis) lets a fleet
   * share them. Default: a memory store of this object's own.
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
  readonly ocspInFlight: Map<string, Promise<Uint8Array>>
  readonly caIssuers: Map<string, Promise<readonly Uint8Array[]>>
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
      caIssuers: new Map(),
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
 * `nextUpdate`; a CRL without `nextUpdate` is not kept.
 *
 * @example
 * ```ts
 * const revocation = createOnlineRevocation({ cache: redisStore({ client }) })
 * await backend.verifyCertificateChain({ chain, trustAnchors, crls: [], at: new Date(), revocation })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 */
export function createOnlineRevocation(options: OnlineRevocationOptions = {}): OnlineRevocation {
  const cache = options.cache ?? revocationMemory(maxParsedEntries)
  const state = sharedStateOf(cache)
  const transport = { fetch: options.fetch, timeoutMs: options.timeoutMs }

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
    certificates(url) {
      const known = state.caIssuers.get(url)
      if (known !== undefined) return known
      const fetching = fetchRevocationDocument({
        ...transport,
        url,
        accept: 'application/pkix-cert, application/pkcs7-mime',
      }).then(readCaIssuersCertificates)
      if (state.caIssuers.size >= maxParsedEntries) {
        const oldest = state.caIssuers.keys().next().value
        if (oldest !== undefined) state.caIssuers.delete(oldest)
      }
      state.caIssuers.set(url, fetching)
      fetching.catch(() => {
        if (state.caIssuers.get(url) === fetching) state.caIssuers.delete(url)
      })
      return fetching
    },
    async ocsp(url, request) {
      const key = `${url} ${base64Encode(request)}`
      const pending = state.ocspInFlight.get(key)
      if (pending !== undefined) return pending
      const posting = fetchRevocationDocument({
        ...transport,
        url,
        accept: 'application/ocsp-response',
        body: { contentType: 'application/ocsp-request', data: request },
      })
      state.ocspInFlight.set(key, posting)
      try {
        return await posting
      } finally {
        state.ocspInFlight.delete(key)
      }
    },
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
