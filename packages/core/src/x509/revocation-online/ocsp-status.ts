import { bytesEqual } from '../../crypto/bytes.js'
import type { ParsedCertificate } from '../certificate.js'
import { isSignedBy, type SignatureVerifier } from '../signed-by.js'
import { hasExtendedKeyUsage } from './certificate-access.js'
import { type OcspCertificateId, sameCertificateId, sha1Oid } from './ocsp-request.js'
import type { OcspSingleResponse, ParsedOcspResponse } from './ocsp-response.js'

/**
 * How far an OCSP answer's times may be off the validation time: 5 minutes, OpenSSL's default
 * (`openssl ocsp -validity_period`), for responder clocks a little ahead or behind.
 */
export const ocspClockSkewMs = 5 * 60 * 1000

/** `id-kp-OCSPSigning`: the purpose an issuer gives a responder it delegates to. */
export const ocspSigningPurpose = '1.3.6.1.5.5.7.3.9'

/** What an OCSP response says about one certificate: an answer, or why it is none. */
export type OcspStatus =
  | { readonly status: 'good' | 'revoked' }
  | { readonly status: 'no-answer'; readonly problem: string }

/**
 * Judges an OCSP response for the certificate `id` names, issued by `issuer`, at `at`:
 *
 * 1. signed by the issuer's key, or by a responder certificate in the response that the issuer
 *    signed, whose extendedKeyUsage has `id-kp-OCSPSigning` and which is valid at `at`
 *    (RFC 6960 §4.2.2.2); a key the issuer never delegated to gives no answer;
 * 2. when `nonce` is given (the nonce the request carried) and the response echoes a nonce, the
 *    same one: another nonce is a replayed or misdirected answer. A response without a nonce is
 *    accepted: pre-produced answers (RFC 5019) and many responders carry none, and the signed
 *    times still bound its age. An answer read from a cache is judged without `nonce`;
 * 3. no critical response or SingleResponse extension the library does not understand
 *    (RFC 6960 §4.4); then a SingleResponse for exactly this CertID (SHA-1 hashes and serial);
 * 4. fresh: `thisUpdate` not after `at`, and `at` not after `nextUpdate` (each with
 *    {@link ocspClockSkewMs}); without `nextUpdate`, `thisUpdate` within that much of `at`
 *    (RFC 6960 §4.2.2.1: newer information is always available, so only a fresh answer counts);
 * 5. `good` or `revoked`; `unknown` is no answer.
 *
 * The responder certificate's own revocation is not checked (RFC 6960 §4.2.2.2.1 leaves it to
 * the client; responders usually carry id-pkix-ocsp-nocheck).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-3.2
 * @see https://www.rfc-editor.org/rfc/rfc6960#section-4.4
 * @see https://www.rfc-editor.org/rfc/rfc8954#section-2.1
 * @see https://www.rfc-editor.org/rfc/rfc5019#section-4
 */
export async function ocspStatus(
  response: ParsedOcspResponse,
  id: OcspCertificateId,
  issuer: ParsedCertificate,
  at: Date,
  verifies: SignatureVerifier,
  nonce?: Uint8Array,
): Promise<OcspStatus> {
  const noAnswer = (problem: string): OcspStatus => ({ status: 'no-answer', problem })
  if (!(await signedForIssuer(response, issuer, at, verifies))) {
    return noAnswer(
      'is signed neither by the issuer nor by a responder the issuer delegated to (id-kp-OCSPSigning)',
    )
  }
  if (nonce !== undefined && response.nonce !== undefined && !bytesEqual(response.nonce, nonce)) {
    return noAnswer('carries another nonce than the request (a replayed or misdirected answer)')
  }
  const [critical] = response.unrecognizedCriticalExtensions
  if (critical !== undefined) {
    return noAnswer(
      `has the critical extension ${critical}, which is not understood (RFC 6960 §4.4)`,
    )
  }
  const single = singleResponseFor(response, id)
  if (single === undefined) return noAnswer('does not answer for this certificate')
  const time = at.getTime()
  if (single.thisUpdate.getTime() > time + ocspClockSkewMs) {
    return noAnswer(`is not yet valid (thisUpdate ${single.thisUpdate.toISOString()})`)
  }
  const staleAfter =
    single.nextUpdate === undefined
      ? single.thisUpdate.getTime() + ocspClockSkewMs
      : single.nextUpdate.getTime() + ocspClockSkewMs
  if (time > staleAfter) {
    return noAnswer(
      `is stale (thisUpdate ${single.thisUpdate.toISOString()}, nextUpdate ${single.nextUpdate?.toISOString() ?? 'none'})`,
    )
  }
  if (single.status === 'unknown') return noAnswer('answers unknown')
  return { status: single.status }
}

/** The SingleResponse of `response` about exactly the certificate `id` names (SHA-1 CertID). */
export function singleResponseFor(
  response: ParsedOcspResponse,
  id: OcspCertificateId,
): OcspSingleResponse | undefined {
  return response.responses.find(
    (entry) => entry.hashAlgorithm === sha1Oid && sameCertificateId(entry, id),
  )
}

async function signedForIssuer(
  response: ParsedOcspResponse,
  issuer: ParsedCertificate,
  at: Date,
  verifies: SignatureVerifier,
): Promise<boolean> {
  if (await isSignedBy(response, issuer, verifies)) return true
  for (const responder of response.certificates) {
    if (
      bytesEqual(responder.issuerDer, issuer.subjectDer) &&
      responder.notBefore.getTime() <= at.getTime() &&
      at.getTime() <= responder.notAfter.getTime() &&
      hasExtendedKeyUsage(responder, ocspSigningPurpose) &&
      (await isSignedBy(responder, issuer, verifies)) &&
      (await isSignedBy(response, responder, verifies))
    ) {
      return true
    }
  }
  return false
}
