import { bytesEqual, type ParsedCertificate } from '@fhir-auth/core/internal'

/**
 * Orders certificates leaf first by issuer linkage: after the leaf comes the certificate whose
 * subject is the leaf's issuer, and so on up to a self-issued root or a missing issuer.
 * PKCS#12 bag order is not reliable (.NET writes roots first), so it is not used. When two
 * candidates share the issuer's name, the one whose subject key identifier matches the
 * authority key identifier wins. Certificates that are not on the leaf's path are left out.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.1
 */
export function orderChain(
  leaf: ParsedCertificate,
  others: readonly ParsedCertificate[],
): ParsedCertificate[] {
  const chain = [leaf]
  const remaining = others.filter((certificate) => !bytesEqual(certificate.der, leaf.der))
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
