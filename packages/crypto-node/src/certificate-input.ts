import { X509Certificate } from 'node:crypto'
import { type CertificateInput, CryptoError, describeValue } from '@fhir-auth/core'
import { certificateDer } from '@fhir-auth/core/backend'

/**
 * The DER bytes of a certificate given as PEM text (the first CERTIFICATE block), DER bytes or
 * a `node:crypto` `X509Certificate` (its `.raw`).
 *
 * @throws CryptoError `invalid-certificate` for text without a certificate, or another type.
 * @see https://www.rfc-editor.org/rfc/rfc7468#section-5
 * @internal
 */
export function certificateInputDer(input: CertificateInput): Uint8Array {
  if (input instanceof X509Certificate) return new Uint8Array(input.raw)
  if (typeof input === 'string' || input instanceof Uint8Array) return certificateDer(input)
  throw new CryptoError(
    'invalid-certificate',
    `expected a certificate as PEM text, DER bytes or an X509Certificate, got ${describeValue(input)}`,
  )
}
