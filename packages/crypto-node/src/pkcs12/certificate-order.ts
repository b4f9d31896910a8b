import type { X509Certificate } from 'node:crypto'

/**
 * Orders a PKCS#12's certificates leaf first: the leaf, then its issuer, that one's issuer and
 * so on, then any certificate outside that line in bag order. Bag order is unreliable (tools
 * write CA certificates first or last), and `x5c` must be leaf first, issuer ordered.
 *
 * Issuance is `X509Certificate.checkIssued` (names and key identifiers; no signature check:
 * chain validation does that later).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-4.1.6
 * @internal
 */
export function orderFromLeaf(
  leaf: X509Certificate,
  certificates: readonly X509Certificate[],
): X509Certificate[] {
  const ordered = [leaf]
  const remaining = certificates.filter((certificate) => certificate !== leaf)
  let current = leaf
  for (;;) {
    // A self-issued certificate is a root: nothing above it belongs in the chain.
    if (current.checkIssued(current)) break
    const issuerIndex = remaining.findIndex((candidate) => current.checkIssued(candidate))
    const issuer = remaining[issuerIndex]
    if (issuer === undefined) break
    ordered.push(issuer)
    remaining.splice(issuerIndex, 1)
    current = issuer
  }
  return [...ordered, ...remaining]
}
