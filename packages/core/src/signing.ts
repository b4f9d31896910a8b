/**
 * `@fhir-auth/core/signing`: what making a signature loads, and nothing else — the
 * signing-algorithm rules every backend's `importSigner` applies (selection, option checks,
 * ready signers), compact JWS assembly with a `JwsSigner` (ECDSA signatures normalised to JOSE
 * form), and the JWT-bearer assertion type.
 *
 * Every name here is also in `@fhir-auth/core/jws` and `@fhir-auth/core/backend`. This entry
 * exists for bundles split per dynamic import: a module that imports an entry reaches every file
 * that entry re-exports, so signing code imports this one and carries no JWS decoding, no parse
 * caches and no X.509 (docs/adr/0012-browser-bytes-by-load-time.md).
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
export { adoptJwsSigner, checkFixedAlgorithm } from './crypto/fixed-algorithm.js'
export { checkImportSignerOptions } from './crypto/import-signer-options.js'
export { type JsonObject, signCompactJws, signWithJwsSigner } from './crypto/jws.js'
export { jwtBearerAssertionType } from './oauth/jwt-bearer.js'

// The other half of the pairing in `internal-signing.ts`: both entries are reached by the same
// chunks, so a split bundle loads their files as one chunk. No names are added. package.json lists
// both files under `sideEffects`: a bundler drops a bare import of a module free of side effects.
import './internal-signing.js'
