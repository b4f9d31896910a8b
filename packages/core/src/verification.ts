/**
 * `@fhir-auth/core/verification`: what checking a signature with a public key loads, and nothing
 * else — reading a DER SubjectPublicKeyInfo (RSA, or EC on P-256/384/521), the bounded caches a
 * backend keeps its imported keys in, and decoding a compact JWS (what an ID token check reads;
 * ID token validation imports it from here, so the two share one chunk).
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
export {
  describeEcPublicKey,
  describeSubjectPublicKeyInfo,
  ecPublicKeyOid,
  namedCurvesByOid,
  type PublicKeyDescription,
  rsaEncryptionOid,
} from './x509/spki.js'
