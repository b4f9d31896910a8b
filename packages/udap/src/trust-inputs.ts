import { splitCertificateInput } from '@fhir-auth/core/backend'
import {
  type CertificateInfo,
  type CertificateInput,
  ConfigurationError,
  type CrlInput,
  type CryptoBackend,
  CryptoError,
} from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal'

/**
 * What the client trusts when it validates a server's `signed_metadata`: the trust anchors of
 * its community and the CRLs that prove no certificate in the server's chain is revoked.
 *
 * Revocation checking is required (fail closed): every CA below the anchor needs a current CRL
 * in `crls`, or validation fails with `crl-missing`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export interface UdapTrustInputs {
  /**
   * Trust anchor certificates (PEM, DER or the backend's objects); at least one. A PEM entry
   * may hold several anchors: every one is trusted.
   */
  readonly trustedAnchors: readonly CertificateInput[]
  /** CRLs (PEM or DER) for the CAs in the server's chain; may be empty only for a bare anchor. */
  readonly crls: readonly CrlInput[]
}

/**
 * Checks the shape of the trust inputs before any request: `trustedAnchors` a non-empty array of
 * certificates (PEM strings, DER bytes or the crypto backend's certificate objects), `crls` an
 * array of PEM strings or DER bytes. Whether each certificate parses is the backend's to say.
 *
 * @returns the two arrays as given.
 * @throws ConfigurationError `trustedAnchors` or `crls`, naming the entry that is wrong.
 * @example
 * ```ts
 * const trust = checkUdapTrustInputs({ trustedAnchors: [communityRootPem], crls: [rootCrlPem] })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export function checkUdapTrustInputs(inputs: Partial<UdapTrustInputs>): UdapTrustInputs {
  const { trustedAnchors, crls } = inputs
  if (!Array.isArray(trustedAnchors) || trustedAnchors.length === 0) {
    throw new ConfigurationError({
      invalidAttribute: 'trustedAnchors',
      message: `trustedAnchors must be a non-empty array of trust anchor certificates (PEM or DER), not ${Array.isArray(trustedAnchors) ? 'an empty array' : describeKind(trustedAnchors)}`,
    })
  }
  if (!Array.isArray(crls)) {
    throw new ConfigurationError({
      invalidAttribute: 'crls',
      message: `crls must be an array of CRLs (PEM or DER; revocation checking is required), not ${describeKind(crls)}`,
    })
  }
  const badAnchor = trustedAnchors.findIndex(
    (anchor) => typeof anchor !== 'string' && (typeof anchor !== 'object' || anchor === null),
  )
  if (badAnchor >= 0) {
    throw new ConfigurationError({
      invalidAttribute: 'trustedAnchors',
      message: `trustedAnchors[${badAnchor}] must be a certificate (PEM, DER or the crypto backend's certificate object), not ${describeKind(trustedAnchors[badAnchor])}`,
    })
  }
  const badCrl = crls.findIndex((crl) => typeof crl !== 'string' && !(crl instanceof Uint8Array))
  if (badCrl >= 0) {
    throw new ConfigurationError({
      invalidAttribute: 'crls',
      message: `crls[${badCrl}] must be a PEM string or DER bytes, not ${describeKind(crls[badCrl])}`,
    })
  }
  return { trustedAnchors, crls }
}

/**
 * Checks the trust inputs before any request: the shapes (see {@link checkUdapTrustInputs}),
 * then every anchor parsed by the backend. A malformed anchor is the caller's configuration
 * mistake and is reported as such, not as an untrusted server.
 *
 * @returns the parsed anchors (in input order; every certificate of a PEM bundle).
 * @throws ConfigurationError `trustedAnchors` or `crls`, with the backend's `CryptoError` as
 *   `cause` for an anchor that does not parse.
 * @internal
 */
export async function checkTrustInputs(
  inputs: Partial<UdapTrustInputs>,
  crypto: CryptoBackend,
): Promise<readonly CertificateInfo[]> {
  const { trustedAnchors } = checkUdapTrustInputs(inputs)
  const anchors: CertificateInfo[] = []
  for (const [index, entry] of trustedAnchors.entries()) {
    try {
      // A PEM entry may be a bundle of anchors: every one of them is trusted.
      for (const anchor of splitCertificateInput(entry)) {
        anchors.push(await crypto.parseCertificate(anchor as CertificateInput))
      }
    } catch (error) {
      if (!(CryptoError.isInstance(error) || ConfigurationError.isInstance(error))) throw error
      throw new ConfigurationError(
        {
          invalidAttribute: 'trustedAnchors',
          message: `trustedAnchors[${index}] is not a certificate the crypto backend can read`,
        },
        { cause: error },
      )
    }
  }
  return anchors
}
