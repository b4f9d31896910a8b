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

export {
  type AlgorithmSelection,
  compatibleAlgorithms,
  type KeyDescription,
  selectSigningAlgorithm,
} from './crypto/algorithms.js'
export { BoundedCache, bytesCacheKey, parseWithCache } from './crypto/bounded-cache.js'
export { ecdsaDerToJose, normalizeEcdsaSignature } from './crypto/ecdsa-signature.js'
export { adoptJwsSigner, checkFixedAlgorithm } from './crypto/fixed-algorithm.js'
export { checkImportSignerOptions } from './crypto/import-signer-options.js'
export { type JsonObject, signCompactJws, signWithJwsSigner } from './crypto/jws.js'
export { type DecodedJws, decodeCompactJws } from './crypto/jws-decode.js'
export { jwtBearerAssertionType } from './oauth/jwt-bearer.js'
