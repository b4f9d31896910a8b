import { bytesEqual } from '../crypto/bytes.js'
import type { ParsedCertificate } from './certificate.js'

/**
 * Orders a PKCS#12 file's certificates for `x5c`: the leaf, then the certificate that issued it,
 * that one's issuer, and so on up to a self-issued root or a missing issuer. Bag order is not
 * used (tools write CA certificates first or last). Issuance is judged by names: the issuer is
 * the certificate whose subject is the current one's issuer name; when several share that name
 * (a re-keyed or cross-signed CA), the one whose subject key identifier matches the authority
 * key identifier wins. Signatures are not checked here: chain validation does that later.
 *
 * Certificates off the leaf's path are left out: in `x5c` each certificate certifies the one
 * before it, so an unrelated certificate would break the chain a server validates.
 *
 * @returns the path from the leaf, leaf first; every backend's `loadPkcs12` returns it.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-4.1.6
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.1
 */
export function orderCertificateChain(
  leaf: ParsedCertificate,
  certificates: readonly ParsedCertificate[],
): ParsedCertificate[] {
  const chain = [leaf]
  const remaining = certificates.filter((certificate) => !bytesEqual(certificate.der, leaf.der))
  let current = leaf
  while (!bytesEqual(current.issuerDer, current.subjectDer)) {
    const issuer = findIssuer(current, remaining)
    if (issuer === undefined) break
    chain.push(issuer)
    remaining.splice(remaining.indexOf(issuer), 1)
    current = issuer
  }
  return chain
}

function findIssuer(
  certificate: ParsedCertificate,
  candidates: readonly ParsedCertificate[],
): ParsedCertificate | undefined {
  const named = candidates.filter((candidate) =>
    bytesEqual(candidate.subjectDer, certificate.issuerDer),
  )
  const authorityKey = certificate.authorityKeyIdentifier
  if (authorityKey !== undefined) {
    const identified = named.find(
      (candidate) =>
        candidate.subjectKeyIdentifier !== undefined &&
        bytesEqual(candidate.subjectKeyIdentifier, authorityKey),
    )
    if (identified !== undefined) return identified
  }
  return named[0]
}
