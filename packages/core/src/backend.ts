/**
 * `@fhir-auth/core/backend`: what a crypto backend is built from — the one certificate path
 * policy (RFC 5280 path validation with required revocation) and the X.509, CRL, PEM, DER and key
 * parsing it runs on, the key-import rules every backend applies (algorithm selection, ready
 * signers, option checks), PKCS#12 chain ordering, cached parsers, and `lazy` for dependencies
 * loaded on first use. `@fhir-auth/crypto-node` and
 * `@fhir-auth/crypto-webcrypto` are built from this entry alone; a third-party backend (an HSM,
 * a KMS, another runtime) needs nothing else, and passes the same contract suite.
 *
 * Everything of `@fhir-auth/core/jws` is here too (algorithm selection, ready-signer adoption,
 * `importSigner` option checks, JWS signing, bounded caches), so a backend imports one entry.
 * A public, stable entry: names are added, never renamed or removed below a new
 * {@link cryptoBackendSpecificationVersion}.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/crypto-backends.md
 * @packageDocumentation
 */

export { describeKind } from './checks/describe-kind.js'
export { cryptoBackendSpecificationVersion } from './crypto/backend-specification.js'
export { type CachedParsers, cachedParsers } from './crypto/cached-parsers.js'
export {
  type CertificateChainServices,
  verifyCertificateChainWith,
} from './crypto/verify-chain-input.js'
export * from './jws.js'
export { lazy } from './loading/lazy.js'
export { lazyImport } from './loading/lazy-import.js'
export * from './private-keys.js'
export * from './verification.js'
export { type AlgorithmIdentifier, readAlgorithmIdentifier } from './x509/algorithm-identifier.js'
export { type ParsedCertificate, parseCertificate } from './x509/certificate.js'
export {
  certificateDer,
  crlDer,
  splitCertificateInput,
  splitCertificateInputs,
  splitCrlInputs,
} from './x509/certificate-der.js'
export {
  type ChainValidationInput,
  type OwnChainValidationInput,
  type SignatureVerifier,
  toCertificateInfo,
  validateCertificateChain,
  validateOwnCertificateChain,
} from './x509/chain.js'
export { type ParsedCrl, parseCrl } from './x509/crl.js'
export {
  concatBytes,
  type DerElement,
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
  readDerElement,
} from './x509/der.js'
export { renderDistinguishedName } from './x509/distinguished-name.js'
export type { CrlScope } from './x509/distribution-points.js'
export type { GeneralName, GeneralNameForm } from './x509/general-names.js'
export { orderCertificateChain } from './x509/issuer-order.js'
export {
  type KeyUsage,
  type KeyUsagePurpose,
  keyUsageBitNames,
} from './x509/key-usage.js'
export type { GeneralSubtree, NameConstraints } from './x509/name-constraints.js'
export { decodeDerOid, encodeDerOid } from './x509/object-identifier.js'
export { checkPathRules } from './x509/path-rules.js'
export { decodePemBlocks, encodePem } from './x509/pem.js'
// Types only: creating one is `@fhir-auth/core/revocation`'s (it loads the request code).
export type {
  OnlineRevocation,
  OnlineRevocationOptions,
} from './x509/revocation-online/online-revocation.js'
export { signatureAlgorithmOf } from './x509/signature-algorithm.js'
// Not in `core/verification`: a bundle reaches every file an entry re-exports, and verifying a
// signature needs only the key type (`readPublicKeyType`), not the whole SPKI reader.
export {
  describeEcPublicKey,
  describeSubjectPublicKeyInfo,
  ecPublicKeyOid,
  namedCurvesByOid,
  type PublicKeyDescription,
  rsaEncryptionOid,
} from './x509/spki.js'
