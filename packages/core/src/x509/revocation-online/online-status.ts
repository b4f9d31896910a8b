import { CryptoError } from '../../errors/crypto-error.js'
import { HttpError } from '../../errors/http-error.js'
import { safeUrl } from '../../http/safe-url.js'
import type { ParsedCertificate } from '../certificate.js'
import { failChain } from '../chain-failure.js'
import type { ParsedCrl } from '../crl.js'
import { type CrlStatus, crlStatus } from '../crl-status.js'
import type { SignatureVerifier } from '../signed-by.js'
import { authorityInformationAccess } from './certificate-access.js'
import { crlDistributionPointUris } from './distribution-point-uris.js'
import { ocspCertificateId } from './ocsp-request.js'
import { type OcspStatus, ocspStatus } from './ocsp-status.js'
import type { OnlineRevocation } from './online-revocation.js'
import { RevocationDocumentStatusError } from './revocation-document-status.js'

/**
 * Decides the revocation status of one certificate whose signature already chains to a trust
 * anchor, when the caller's CRLs have none from its issuer: each `http:`/`https:` CRL
 * distribution point in certificate order, its CRL from the cache or fetched, judged like a
 * caller's CRL ({@link crlStatus}). The first usable CRL decides. A distribution point that
 * cannot be reached, answers with something other than a CRL, or gives a CRL that is stale,
 * badly signed or does not cover the certificate gives no answer; so do `ldap:` and `file:`
 * points, which are never fetched. When no CRL answers, each OCSP responder of the
 * certificate's authority information access is asked in turn ({@link ocspStatus}): a kept
 * answer, else a request with a nonce; `unknown`, stale, unsigned or undelegated answers, and
 * answers that echo another nonce, are no answer.
 *
 * @throws CertificateChainError `revoked` when a usable CRL lists the certificate;
 *   `revocation-unavailable` when no source answers (fail closed), the message naming what each
 *   source said.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.3
 */
export async function checkRevocationOnline(
  certificate: ParsedCertificate,
  issuer: ParsedCertificate,
  revocation: OnlineRevocation,
  at: Date,
  verifies: SignatureVerifier,
): Promise<void> {
  const { fetchable, other } = crlDistributionPointUris(certificate)
  const notes = other.map((uri) => `the distribution point ${describeUri(uri)} is not fetched`)
  for (const url of fetchable) {
    const judged = new WeakMap<ParsedCrl, CrlStatus>()
    const judge = async (crl: ParsedCrl): Promise<CrlStatus> => {
      let status = judged.get(crl)
      if (status === undefined) {
        status = await crlStatus(certificate, issuer, [crl], at, verifies)
        judged.set(crl, status)
      }
      return status
    }
    let status: CrlStatus
    try {
      const crl = await revocation.crl(
        url,
        at,
        async (candidate) => (await judge(candidate)).status !== 'unusable',
      )
      status = await judge(crl)
    } catch (error) {
      notes.push(`the CRL at ${safeUrl(url)} ${fetchProblem(error, 'a CRL')}`)
      continue
    }
    if (status.status === 'revoked') failChain('revoked', status.message, certificate)
    if (status.status === 'good') return
    notes.push(`the CRL at ${safeUrl(url)} is not usable (${status.reason}: ${status.message})`)
  }
  if (fetchable.length + other.length === 0) {
    notes.push('it names no CRL distribution point')
  }
  const { ocsp } = authorityInformationAccess(certificate)
  if (ocsp.length > 0) {
    const id = await ocspCertificateId(certificate, issuer)
    for (const url of ocsp) {
      let status: OcspStatus
      try {
        status = asOcspStatus(
          await revocation.ocsp(url, id, at, (response, nonce) =>
            ocspStatus(response, id, issuer, at, verifies, nonce),
          ),
        )
      } catch (error) {
        notes.push(`the OCSP responder ${safeUrl(url)} ${fetchProblem(error, 'an OCSP response')}`)
        continue
      }
      if (status.status === 'revoked') {
        failChain(
          'revoked',
          `certificate "${certificate.subject}" (serial ${certificate.serialNumber}) is revoked, says the OCSP responder ${safeUrl(url)} for "${certificate.issuer}"`,
          certificate,
        )
      }
      // Only an explicit `good` passes: anything else is no answer.
      if (status.status === 'good') return
      const problem = status.status === 'no-answer' ? status.problem : 'is no answer'
      notes.push(`the OCSP answer of ${safeUrl(url)} ${problem}`)
    }
  } else {
    notes.push('it names no OCSP responder')
  }
  failChain(
    'revocation-unavailable',
    `the revocation status of certificate "${certificate.subject}" cannot be had (no CRL from "${certificate.issuer}" was supplied): ${notes.join('; ')}`,
    certificate,
  )
}

/**
 * What an {@link OnlineRevocation} of another making said, as an {@link OcspStatus}: a value
 * that is not an object (nothing, a string) is no answer rather than a `TypeError`.
 */
function asOcspStatus(value: unknown): OcspStatus {
  if (typeof value !== 'object' || value === null)
    return { status: 'no-answer', problem: 'is no answer' }
  const { status, problem } = value as { status?: unknown; problem?: unknown }
  if (status === 'good' || status === 'revoked') return { status }
  return { status: 'no-answer', problem: typeof problem === 'string' ? problem : 'is no answer' }
}

/** What went wrong with one fetch, for the message (never a body). */
function fetchProblem(error: unknown, what: string): string {
  if (error instanceof RevocationDocumentStatusError) return error.message
  if (HttpError.isInstance(error)) return `cannot be fetched (${error.reason}): ${error.message}`
  if (CryptoError.isInstance(error)) return `did not send ${what}: ${error.message}`
  // A cache that failed (a store down): no answer from this point, never a verdict.
  return `cannot be had: ${error instanceof Error ? error.name : 'failure'}`
}

/** A URI from a certificate for a message: at most 200 characters. */
function describeUri(uri: string): string {
  return JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri)
}
