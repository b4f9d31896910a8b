import {
  CertificateChainError,
  type CrlInput,
  type VerifiedCertificateChain,
  type VerifyCertificateChainParams,
} from '@fhir-auth/core'
import {
  type ParsedCertificate,
  type ParsedCrl,
  type SignatureVerifier,
  validateCertificateChain,
} from '@fhir-auth/core/internal'

/** What chain validation needs from the backend: parsing (cached) and one signature check. */
export interface ChainValidationServices {
  readonly parseCertificate: (input: unknown) => ParsedCertificate
  readonly parseCrl: (input: CrlInput) => ParsedCrl
  readonly verify: SignatureVerifier
}

/**
 * Validates a leaf-first chain with core's path policy (the same verdicts in every backend),
 * using this backend's (cached) parsing and WebCrypto signature verification.
 *
 * @throws CertificateChainError with the policy's `reason` (`untrusted`, `expired`, `revoked`,
 *   `crl-missing`, …), or `malformed` when the parameters are not arrays and a valid `Date`.
 * @throws CryptoError `invalid-certificate` / `invalid-crl` for input that does not parse.
 * @see packages/core/README.md#crypto-backends in the fhir-auth repository
 */
export async function verifyCertificateChain(
  params: VerifyCertificateChainParams,
  services: ChainValidationServices,
): Promise<VerifiedCertificateChain> {
  if (typeof params !== 'object' || params === null) {
    throw new CertificateChainError(
      'malformed',
      'verifyCertificateChain needs { chain, trustAnchors, crls, at }',
    )
  }
  const { chain, trustAnchors, crls, at } = params
  for (const [name, value] of [
    ['chain', chain],
    ['trustAnchors', trustAnchors],
    ['crls', crls],
  ] as const) {
    if (!Array.isArray(value)) {
      throw new CertificateChainError('malformed', `${name} must be an array`)
    }
  }
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new CertificateChainError('malformed', 'at must be a valid Date')
  }
  return validateCertificateChain(
    {
      chain: chain.map((certificate) => services.parseCertificate(certificate)),
      trustAnchors: trustAnchors.map((anchor) => services.parseCertificate(anchor)),
      crls: crls.map((crl) => services.parseCrl(crl)),
      at,
    },
    services.verify,
  )
}
