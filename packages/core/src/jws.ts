/**
 * `@fhir-auth/core/jws`: compact JWS assembly and decoding, ECDSA signature conversion and the
 * signing-algorithm selection rules — what signing clients (asymmetric SMART clients, backend
 * services, UDAP) and crypto backends need. A separate entry so that public SMART clients never
 * carry this code in a browser bundle.
 *
 * @packageDocumentation
 */

export {
  type AlgorithmSelection,
  compatibleAlgorithms,
  type KeyDescription,
  selectSigningAlgorithm,
} from './crypto/algorithms.js'
export { ecdsaDerToJose, normalizeEcdsaSignature } from './crypto/ecdsa-signature.js'
export { type DecodedJws, decodeCompactJws, type JsonObject, signCompactJws } from './crypto/jws.js'
