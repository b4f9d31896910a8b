import { type ParsedCertificate, parseCertificate } from '../x509/certificate.js'
import { crlDer } from '../x509/certificate-der.js'
import { type ParsedCrl, parseCrl } from '../x509/crl.js'
import { BoundedCache, parseWithCache } from './bounded-cache.js'

/** A backend's certificate and CRL parsers, each with a bounded cache. */
export interface CachedParsers {
  /** Parses a certificate input (PEM, DER, the backend's native object), once per DER. */
  parseCertificate(input: unknown): ParsedCertificate
  /** Parses a CRL given as PEM or DER, once per DER. */
  parseCrl(input: unknown): ParsedCrl
}

// Sized for a client talking to a handful of servers: each UDAP chain is 2–4 certificates plus
// one CRL per CA. Bounded so a long-running process cannot grow without limit.
const certificateCacheSize = 64
const crlCacheSize = 16

/**
 * The parsers a backend gives `verifyCertificateChainWith` and uses for `parseCertificate`: core's
 * strict X.509 and CRL parsing behind small bounded caches, so validating the same UDAP chain
 * again costs only the signature checks. Each backend makes its own (no global state).
 *
 * @param certificateDer - the backend's way from a certificate input to DER: PEM and DER through
 *   `certificateDer`, plus its native certificate objects.
 * @throws CryptoError `invalid-certificate` / `invalid-crl` (from the parsers) for input that
 *   does not parse.
 */
export function cachedParsers(certificateDer: (input: unknown) => Uint8Array): CachedParsers {
  const certificates = new BoundedCache<ParsedCertificate>(certificateCacheSize)
  const crls = new BoundedCache<ParsedCrl>(crlCacheSize)
  return {
    parseCertificate: (input) =>
      parseWithCache(certificateDer(input), certificates, parseCertificate),
    parseCrl: (input) => parseWithCache(crlDer(input as string), crls, parseCrl),
  }
}
