/**
 * `@fhir-auth/core/verification`: what checking a signature with a public key loads, and nothing
 * else — the key type and curve of a DER SubjectPublicKeyInfo (`readPublicKeyType`: RSA, or EC
 * on P-256/384/521, refused with the reasons the full reader gives; the platform's key import
 * checks the rest), the bounded caches a backend keeps its imported keys in, and decoding a
 * compact JWS (what an ID token check reads; ID token validation imports it from here, so the
 * two share one chunk).
 *
 * The full SPKI reader (`describeSubjectPublicKeyInfo`, the key OIDs and curves) is in
 * `@fhir-auth/core/backend` only: a bundler puts every file an entry re-exports into each chunk
 * that imports the entry, and that reader would bring core's X.509 DER code into the ID token
 * path (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * Every name here is also in `@fhir-auth/core/backend`. This entry exists for bundles split per
 * dynamic import: a backend's `verifySignature` (an ID token's signature, say) imports this one
 * and carries no certificate, CRL or chain code (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * @packageDocumentation
 */

export { BoundedCache, bytesCacheKey, parseWithCache } from './crypto/bounded-cache.js'
export { bytesEqual } from './crypto/bytes.js'
export { type DecodedJws, decodeCompactJws } from './crypto/jws-decode.js'
export { readPublicKeyType } from './x509/spki-key-type.js'
