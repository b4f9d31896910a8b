/**
 * `@fhir-auth/test-pki/revocation`: a PKI whose certificates name CRL distribution points on a
 * loopback server this module starts, with one case per revocation outcome, and one whose
 * certificates name `openssl ocsp` responders; a generated corpus of such PKIs and
 * `openssl verify -crl_download` to compare verdicts with. Node only.
 */

export {
  authorizedOcspSigners,
  type OcspCorpusCase,
  type OcspLeafStatus,
  type OcspSigner,
  startOcspCorpusCase,
} from '../corpus/ocsp-corpus.js'
export {
  type CaIssuersServing,
  type CorpusDistributionPoint,
  type CorpusPathCertificate,
  type CrlServing,
  generateRevocationCorpus,
  hangingCrlPath,
  type RevocationCorpus,
  type RevocationCorpusCase,
  type RevocationCorpusDocument,
  usableCrlServings,
} from '../corpus/revocation-corpus.js'
export { certsOnlyPkcs7 } from './certs-only-pkcs7.js'
export {
  type OcspCase,
  type OcspCaseName,
  type OcspLeafName,
  type OcspNonceMode,
  type OcspPki,
  type OcspPkiMaterial,
  type OcspResponderPath,
  ocspRequestNonceOf,
  startOcspPki,
} from './ocsp-pki.js'
export {
  type CrlDownloadInput,
  type CrlDownloadVerdict,
  crlDownloadVerifyOptions,
  openSslCrlDownloadVerdict,
  openSslVersion,
} from './openssl-crl-download.js'
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
export { type SignedOcspResponseOptions, signedOcspResponse } from './signed-ocsp-response.js'
