import {
  ConfigurationError,
  describeValue,
  type SignatureCheck,
  type VerifiedCertificateChain,
  type VerifyCertificateChainParams,
} from '@fhir-auth/core'
import {
  type ParsedCertificate,
  type ParsedCrl,
  validateCertificateChain,
} from '@fhir-auth/core/internal'

/** What chain validation needs from the backend: parsing (cached) and one signature check. */
export interface ChainValidationServices {
  readonly parseCertificate: (input: unknown) => ParsedCertificate
  readonly parseCrl: (input: unknown) => ParsedCrl
  readonly verifySignature: (check: SignatureCheck) => Promise<boolean>
}

/**
 * `CryptoBackend.verifyCertificateChain`: converts the inputs (PEM, DER or `X509Certificate`;
 * CRLs as PEM or DER) and applies core's one path policy with `node:crypto` signature checks,
 * so this backend and the WebCrypto one give the same verdict for the same inputs.
 *
 * @throws ConfigurationError `chain`, `trustAnchors`, `crls` or `at` for a wrong type.
 * @throws CryptoError `invalid-certificate` / `invalid-crl` for input that does not parse.
 * @throws CertificateChainError with the policy's `reason` (`untrusted`, `expired`, `revoked`,
 *   `crl-missing`, …) when the chain does not validate.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6
 * @internal
 */
export async function verifyNodeCertificateChain(
  params: VerifyCertificateChainParams,
  services: ChainValidationServices,
): Promise<VerifiedCertificateChain> {
  if (typeof params !== 'object' || params === null) {
    throw new ConfigurationError({
      invalidAttribute: 'params',
      invalidValue: describeValue(params),
      message: 'verifyCertificateChain needs an object with chain, trustAnchors, crls and at',
    })
  }
  const chain = requireArray(params.chain, 'chain')
  const trustAnchors = requireArray(params.trustAnchors, 'trustAnchors')
  const crls = requireArray(params.crls, 'crls')
  const at: unknown = params.at
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new ConfigurationError({
      invalidAttribute: 'at',
      invalidValue: describeValue(at),
      message: 'at must be a valid Date: the time the chain must be valid at',
    })
  }
  return validateCertificateChain(
    {
      chain: chain.map((certificate) => services.parseCertificate(certificate)),
      trustAnchors: trustAnchors.map((anchor) => services.parseCertificate(anchor)),
      crls: crls.map((crl) => services.parseCrl(crl)),
      at,
    },
    services.verifySignature,
  )
}

function requireArray(value: unknown, attribute: string): readonly unknown[] {
  if (Array.isArray(value)) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: describeValue(value),
    message: `${attribute} must be an array`,
  })
}
