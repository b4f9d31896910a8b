/**
 * `@fhir-auth/core/revocation`: revocation information and missing CA certificates fetched
 * online for the path policy (`verifyCertificateChain`'s `revocation`): CRLs from distribution
 * points and OCSP answers (requests with a nonce) kept until their `nextUpdate`, AIA
 * `caIssuers` certificates kept for a day at most. An entry of its own so that code
 * that only validates chains never loads the request code.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13
 * @see https://www.rfc-editor.org/rfc/rfc6960
 * @packageDocumentation
 */

export type { OcspJudge } from './x509/revocation-online/ocsp-answers.js'
export type { OcspCertificateId } from './x509/revocation-online/ocsp-request.js'
export type {
  OcspSingleResponse,
  ParsedOcspResponse,
} from './x509/revocation-online/ocsp-response.js'
export type { OcspStatus } from './x509/revocation-online/ocsp-status.js'
export {
  createOnlineRevocation,
  type OnlineRevocation,
  type OnlineRevocationOptions,
} from './x509/revocation-online/online-revocation.js'
export { maxRevocationDocumentBytes } from './x509/revocation-online/revocation-document.js'
export { revocationMemory } from './x509/revocation-online/revocation-memory.js'
