import { base64Decode, CertificateChainError, type CryptoBackend } from '@fhir-auth/core'
import type { OnlineRevocation } from '@fhir-auth/core/revocation'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import type { OcspPki } from '@fhir-auth/test-pki/revocation'

/** What one chain validation of the OCSP tests said: `ok`, or the failure's reason and text. */
export interface ChainVerdict {
  readonly reason: string
  readonly message: string
  readonly subject: string | undefined
}

/**
 * Validates `certificate`'s chain (leaf first, as issued) against the OCSP PKI's root with no
 * CRLs, revocation looked up through `revocation`, at `at` (default now).
 */
export async function chainVerdict(
  backend: CryptoBackend,
  pki: Pick<OcspPki, 'root'>,
  certificate: Pick<IssuedCertificate, 'chainDer'>,
  options: { readonly revocation: OnlineRevocation; readonly at?: Date | undefined },
): Promise<ChainVerdict> {
  try {
    await backend.verifyCertificateChain({
      chain: certificate.chainDer.map(
        (der) => base64Decode(Buffer.from(der).toString('base64')) ?? der,
      ),
      trustAnchors: [pki.root.certificatePem],
      crls: [],
      at: options.at ?? new Date(),
      revocation: options.revocation,
    })
    return { reason: 'ok', message: '', subject: undefined }
  } catch (error) {
    if (!CertificateChainError.isInstance(error)) throw error
    return { reason: error.reason, message: error.message, subject: error.subject }
  }
}
