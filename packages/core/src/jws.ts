/**
 * `@fhir-auth/core/jws`: compact JWS assembly and decoding, the JWT client assertion type, ECDSA
 * signature conversion and the
 * signing-algorithm selection rules (with the checks every crypto backend's `importSigner`
 * shares, and the backends' bounded parse caches) — what signing clients (asymmetric SMART
 * clients, backend services, UDAP) and crypto backends need. A separate entry so that public
 * SMART clients never carry this code in a browser bundle.
 *
 * @packageDocumentation
 */

export { BoundedCache, bytesCacheKey, parseWithCache } from './crypto/bounded-cache.js'
export { type DecodedJws, decodeCompactJws } from './crypto/jws-decode.js'
// Re-exported through `core/signing` rather than file by file: a bundler then reaches the
// signing barrel from every chunk that uses this entry or `core/backend`, and keeps the barrel
// in the chunk of the files it names instead of an empty chunk of its own (ADR 0012).
export * from './signing.js'
