import * as pkijs from 'pkijs'

/** Why a certificate path was refused. */
export type PathFailureReason =
  | 'not-end-entity'
  | 'untrusted'
  | 'expired'
  | 'not-yet-valid'
  | 'revoked'
  | 'crl-missing'
  | 'crl-stale'
  | 'crl-bad-signature'

/** The outcome of {@link validateCertificatePath}. */
export type PathValidationResult =
  | { readonly valid: true }
  | { readonly valid: false; readonly reason: PathFailureReason; readonly message: string }

/** Trust anchors and CRLs, already parsed. */
export interface ParsedTrustStore {
  readonly anchors: readonly pkijs.Certificate[]
  readonly crls: readonly pkijs.CertificateRevocationList[]
}

/**
 * Validates a leaf-first certificate chain (an `x5c`) against trust anchors at time `at`.
 * The first certificate must be an end entity (basicConstraints without cA): a client signs
 * with its own certificate, never with a CA's.
 *
 * pkijs builds the path and checks signatures, validity periods and CA constraints. Revocation
 * is checked here, not by pkijs, because pkijs silently skips it when no CRL is supplied: every
 * certificate in the path except the anchor needs a CRL from its issuer whose signature
 * verifies with the issuer's key and that is current at `at` (`thisUpdate ≤ at < nextUpdate`),
 * and that does not list it. No such CRL → refused (fail closed).
 *
 * @see https://www.udap.org/udap-dynamic-client-registration.html (§4: chain incl. revocation)
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.3
 */
export async function validateCertificatePath(
  chain: readonly pkijs.Certificate[],
  trust: ParsedTrustStore,
  at: Date,
): Promise<PathValidationResult> {
  const [leaf, ...intermediates] = chain
  if (leaf === undefined) return failure('untrusted', 'the certificate chain is empty')
  if (isCertificateAuthority(leaf)) {
    return failure(
      'not-end-entity',
      `x5c[0] "${subjectOf(leaf)}" is a CA certificate, not an end entity`,
    )
  }
  for (const certificate of chain) {
    if (certificate.notAfter.value < at) {
      return failure('expired', `certificate "${subjectOf(certificate)}" expired`)
    }
    if (certificate.notBefore.value > at) {
      return failure('not-yet-valid', `certificate "${subjectOf(certificate)}" is not yet valid`)
    }
  }
  // pkijs treats the last element of `certs` as the end entity; x5c is leaf first.
  const engine = new pkijs.CertificateChainValidationEngine({
    trustedCerts: [...trust.anchors],
    certs: [...intermediates, leaf],
    checkDate: at,
  })
  let path: readonly pkijs.Certificate[]
  try {
    const result = await engine.verify()
    if (!result.result || result.certificatePath === undefined) {
      return failure(
        'untrusted',
        `no valid path from "${subjectOf(leaf)}" to a trust anchor (${result.resultMessage})`,
      )
    }
    path = result.certificatePath
  } catch {
    return failure('untrusted', `no valid path from "${subjectOf(leaf)}" to a trust anchor`)
  }
  for (let index = 0; index + 1 < path.length; index += 1) {
    const certificate = path[index] as pkijs.Certificate
    const issuer = path[index + 1] as pkijs.Certificate
    const problem = await checkRevocation(certificate, issuer, trust.crls, at)
    if (problem !== undefined) return problem
  }
  return { valid: true }
}

async function checkRevocation(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  crls: readonly pkijs.CertificateRevocationList[],
  at: Date,
): Promise<PathValidationResult | undefined> {
  const subject = subjectOf(certificate)
  const fromIssuer = crls.filter((crl) => crl.issuer.isEqual(certificate.issuer))
  if (fromIssuer.length === 0) {
    return failure('crl-missing', `no CRL from the issuer of "${subject}" (revocation is required)`)
  }
  const verified: pkijs.CertificateRevocationList[] = []
  for (const crl of fromIssuer) {
    if (await crlSignatureVerifies(crl, issuer)) verified.push(crl)
  }
  if (verified.length === 0) {
    return failure(
      'crl-bad-signature',
      `the CRL for "${subject}" does not verify with its issuer's key`,
    )
  }
  const current = verified.filter(
    (crl) =>
      crl.thisUpdate.value <= at && crl.nextUpdate !== undefined && crl.nextUpdate.value > at,
  )
  if (current.length === 0) {
    return failure('crl-stale', `the CRL for "${subject}" is not current`)
  }
  if (current.some((crl) => crl.isCertificateRevoked(certificate))) {
    return failure('revoked', `certificate "${subject}" is revoked`)
  }
  return undefined
}

async function crlSignatureVerifies(
  crl: pkijs.CertificateRevocationList,
  issuer: pkijs.Certificate,
): Promise<boolean> {
  try {
    return await crl.verify({ issuerCertificate: issuer })
  } catch {
    return false
  }
}

function isCertificateAuthority(certificate: pkijs.Certificate): boolean {
  const basicConstraints = certificate.extensions?.find(
    (extension) => extension.extnID === '2.5.29.19',
  )
  return (
    basicConstraints?.parsedValue instanceof pkijs.BasicConstraints &&
    basicConstraints.parsedValue.cA === true
  )
}

/** The certificate's common name (or its whole subject when it has none), for messages. */
export function subjectOf(certificate: pkijs.Certificate): string {
  const commonName = certificate.subject.typesAndValues.find((entry) => entry.type === '2.5.4.3')
  const value: unknown = commonName?.value.valueBlock.value
  return typeof value === 'string' ? value : 'certificate without common name'
}

function failure(reason: PathFailureReason, message: string): PathValidationResult {
  return { valid: false, reason, message }
}
