/**
 * `@fhir-auth/test-pki/revocation`: a PKI whose certificates name CRL distribution points on a
 * loopback server this module starts, with one case per revocation outcome. Node only.
 */

export {
  type OcspLeafName,
  type OcspNonceMode,
  type OcspPki,
  type OcspResponderPath,
  ocspRequestNonceOf,
  startOcspPki,
} from './ocsp-pki.js'
export {
  type OcspIndexEntry,
  type OpenSslOcspResponder,
  type OpenSslOcspResponderOptions,
  startOpenSslOcspResponder,
} from './openssl-ocsp-responder.js'
export {
  type RevocationCase,
  type RevocationCaseName,
  type RevocationPki,
  type RevocationPkiMaterial,
  revocationCaseExpectations,
  startRevocationPki,
} from './revocation-pki.js'
export { hugeCrlBytes, type RevocationServer, startRevocationServer } from './revocation-server.js'
