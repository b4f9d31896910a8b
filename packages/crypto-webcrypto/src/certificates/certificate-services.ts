import {
  cachedParsers,
  type SignatureVerifier,
  toCertificateInfo,
  verifyCertificateChainWith,
} from '@fhir-auth/core/backend'
import type { CryptoBackend } from '@fhir-auth/core/essentials'
import { keyMatchesCertificate } from '../keys/key-matches-certificate.js'
import type { SubtleSource } from '../subtle.js'
import { certificateBytes } from './certificate-bytes.js'

/** The certificate methods of a backend: what only UDAP and certificate-bound clients call. */
export type CertificateServices = Pick<
  CryptoBackend,
  'parseCertificate' | 'keyMatchesCertificate' | 'verifyCertificateChain'
>

/**
 * The backend's certificate methods on core's X.509 code and path policy, with one backend's
 * bounded parse caches. Loaded on the first certificate call: a backend that only signs with a
 * JWK, a `CryptoKey` or a PEM key, or only verifies signatures, never loads this chunk.
 */
export function createCertificateServices(
  subtle: SubtleSource,
  verifySignature: SignatureVerifier,
): CertificateServices {
  const { parseCertificate, parseCrl } = cachedParsers(certificateBytes)
  return {
    parseCertificate: async (certificate) => toCertificateInfo(parseCertificate(certificate)),
    keyMatchesCertificate: async (key, certificate) =>
      keyMatchesCertificate(subtle, verifySignature, key, parseCertificate(certificate)),
    verifyCertificateChain: (params) =>
      verifyCertificateChainWith(params, { parseCertificate, parseCrl, verifySignature }),
  }
}
