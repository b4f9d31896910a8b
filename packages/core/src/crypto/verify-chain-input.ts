import { readOptions } from '../checks/options-object.js'
import { wrongType } from '../checks/wrong-type.js'
import { ConfigurationError, describeValue } from '../errors/configuration-error.js'
import type { ParsedCertificate } from '../x509/certificate.js'
import { splitCertificateInputs, splitCrlInputs } from '../x509/certificate-der.js'
import { type SignatureVerifier, validateCertificateChain } from '../x509/chain.js'
import type { ParsedCrl } from '../x509/crl.js'
import type { OnlineRevocation } from '../x509/revocation-online/online-revocation.js'
import type { VerifiedCertificateChain, VerifyCertificateChainParams } from './backend.js'

/** What {@link verifyCertificateChainWith} needs from a backend. */
export interface CertificateChainServices {
  /** Turns a certificate input (PEM, DER, the backend's native object) into a parsed certificate. */
  readonly parseCertificate: (input: unknown) => ParsedCertificate
  /** Turns a CRL input (PEM or DER) into a parsed CRL. */
  readonly parseCrl: (input: unknown) => ParsedCrl
  /** The backend's signature check. */
  readonly verifySignature: SignatureVerifier
}

/**
 * `CryptoBackend.verifyCertificateChain` for any backend: checks the parameters a JavaScript
 * caller passed, parses the inputs with the backend's (cached) parsers — every block of a PEM
 * entry, in order, so one PEM text may hold a whole chain, several anchors or several CRLs — and
 * applies core's one path policy with the backend's signature check, so every backend gives the
 * same verdict — and the same error — for the same input.
 *
 * @throws ConfigurationError on `params`, `chain`, `trustAnchors`, `crls` or `at` for a value of
 *   the wrong type (a caller's mistake, not a verdict on a chain).
 * @throws CryptoError `invalid-certificate` / `invalid-crl` from the parsers.
 * @throws CertificateChainError with the policy's `reason` when the chain does not validate.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6
 */
export async function verifyCertificateChainWith(
  params: VerifyCertificateChainParams,
  services: CertificateChainServices,
): Promise<VerifiedCertificateChain> {
  const input = readOptions(params, 'verifyCertificateChain', {
    required: true,
    attribute: 'params',
    description: 'verifyCertificateChain params ({ chain, trustAnchors, crls, at })',
  })
  const chain = requireArray(input.chain, 'chain')
  const trustAnchors = requireArray(input.trustAnchors, 'trustAnchors')
  const crls = requireArray(input.crls, 'crls')
  const at: unknown = input.at
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new ConfigurationError({
      invalidAttribute: 'at',
      invalidValue: describeValue(at),
      message: 'at must be a valid Date: the time the chain must be valid at',
    })
  }
  return validateCertificateChain(
    {
      chain: splitCertificateInputs(chain).map((certificate) =>
        services.parseCertificate(certificate),
      ),
      trustAnchors: splitCertificateInputs(trustAnchors).map((anchor) =>
        services.parseCertificate(anchor),
      ),
      crls: splitCrlInputs(crls).map((crl) => services.parseCrl(crl)),
      at,
      revocation: readRevocation(input.revocation),
    },
    services.verifySignature,
  )
}

function readRevocation(value: unknown): OnlineRevocation | undefined {
  if (value === undefined) return undefined
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'crl') === 'function'
  )
    return value as OnlineRevocation
  throw wrongType('revocation', 'the result of createOnlineRevocation()', value)
}

function requireArray(value: unknown, attribute: string): readonly unknown[] {
  if (Array.isArray(value)) return value
  throw wrongType(attribute, 'an array', value)
}
