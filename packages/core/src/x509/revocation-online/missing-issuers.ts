import { bytesEqual } from '../../crypto/bytes.js'
import { CryptoError } from '../../errors/crypto-error.js'
import { type ParsedCertificate, parseCertificate } from '../certificate.js'
import { authorityInformationAccess } from './certificate-access.js'
import type { OnlineRevocation } from './online-revocation.js'

/** The most certificates fetched for one chain: a path deeper than this is not completed. */
export const maxFetchedIssuers = 4

/**
 * The most `caIssuers` URLs asked for one chain, all certificates together. These URLs come from
 * certificates nobody has verified yet (a server's own `x5c`), so their number must not decide
 * how many requests a validation makes: a CA names one or two per certificate.
 */
export const maxCaIssuersUrls = 8

/**
 * Completes a chain whose top certificate's issuer is neither a trust anchor nor in the chain:
 * the AIA `caIssuers` URLs of that certificate are fetched (`http:`/`https:`, once per URL per
 * cache, DER or PKCS#7 certs-only) and the first certificate whose subject is the missing issuer
 * (preferring one whose key identifier matches) is appended; again for the new top, up to
 * {@link maxFetchedIssuers}, asking at most {@link maxCaIssuersUrls} URLs in all. What is appended is checked afterwards by the path policy like any
 * other certificate of the chain. Nothing fetched that does not fit is appended.
 *
 * @returns the chain, completed as far as the fetched certificates allow.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.2.1
 */
export async function fetchMissingIssuers(
  chain: readonly ParsedCertificate[],
  trustAnchors: readonly ParsedCertificate[],
  revocation: OnlineRevocation,
): Promise<readonly ParsedCertificate[]> {
  const completed = [...chain]
  const budget = { urls: maxCaIssuersUrls }
  for (let fetched = 0; fetched < maxFetchedIssuers; fetched++) {
    const top = completed[completed.length - 1]
    if (top === undefined || !needsIssuer(top, completed, trustAnchors)) break
    const issuer = await fetchIssuer(top, revocation, budget)
    if (
      issuer === undefined ||
      completed.some((certificate) => bytesEqual(certificate.der, issuer.der))
    )
      break
    completed.push(issuer)
  }
  return completed
}

function needsIssuer(
  top: ParsedCertificate,
  chain: readonly ParsedCertificate[],
  trustAnchors: readonly ParsedCertificate[],
): boolean {
  if (bytesEqual(top.subjectDer, top.issuerDer)) return false
  if (trustAnchors.some((anchor) => bytesEqual(anchor.der, top.der))) return false
  if (trustAnchors.some((anchor) => bytesEqual(anchor.subjectDer, top.issuerDer))) return false
  return !chain.some((certificate) => bytesEqual(certificate.subjectDer, top.issuerDer))
}

async function fetchIssuer(
  certificate: ParsedCertificate,
  revocation: OnlineRevocation,
  budget: { urls: number },
): Promise<ParsedCertificate | undefined> {
  const { caIssuers } = authorityInformationAccess(certificate)
  for (const url of caIssuers) {
    if (budget.urls <= 0) return undefined
    budget.urls--
    let candidates: ParsedCertificate[]
    try {
      candidates = (await revocation.certificates(url)).flatMap((der) => {
        try {
          return [parseCertificate(der)]
        } catch (error) {
          if (error instanceof CryptoError) return []
          throw error
        }
      })
    } catch {
      // Unreachable, not a certificate: the next URL, else the chain stays as it is (no-path).
      continue
    }
    const named = candidates.filter((candidate) =>
      bytesEqual(candidate.subjectDer, certificate.issuerDer),
    )
    const keyId = certificate.authorityKeyIdentifier
    const match =
      named.find(
        (candidate) =>
          keyId !== undefined &&
          candidate.subjectKeyIdentifier !== undefined &&
          bytesEqual(candidate.subjectKeyIdentifier, keyId),
      ) ?? named[0]
    if (match !== undefined) return match
  }
  return undefined
}
