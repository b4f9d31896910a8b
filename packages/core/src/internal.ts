/**
 * `@fhir-auth/core/internal`: helpers shared between fhir-auth packages (DER, PEM,
 * keys, X.509 certificates, CRLs and the certificate path validation policy). Not a public API: it may
 * change in any release. Pure parsing without crypto: backends supply signature verification.
 *
 * @internal
 * @packageDocumentation
 */

export {
  type AlgorithmIdentifier,
  readAlgorithmIdentifier,
  signatureAlgorithmOf,
} from './x509/algorithm-identifier.js'
export { type ParsedCertificate, parseCertificate } from './x509/certificate.js'
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
  bytesEqual,
  concatBytes,
  type DerElement,
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
  readDerElement,
} from './x509/der.js'
export { renderDistinguishedName } from './x509/distinguished-name.js'
export { keyUsageBitNames } from './x509/key-usage.js'
export { decodeDerOid, encodeDerOid } from './x509/object-identifier.js'
export { certificateDer, crlDer, decodePemBlocks, encodePem } from './x509/pem.js'
export { describePrivateKeyPem, type PrivateKeyDescription } from './x509/private-key.js'
export {
  describeEcPublicKey,
  describeSubjectPublicKeyInfo,
  ecPublicKeyOid,
  namedCurvesByOid,
  type PublicKeyDescription,
  rsaEncryptionOid,
} from './x509/spki.js'
