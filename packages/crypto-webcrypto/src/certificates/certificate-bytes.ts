import { certificateDer, describeKind } from '@fhir-auth/core/backend'
import { type CertificateInput, CryptoError } from '@fhir-auth/core/essentials'

/** The part of a pkijs `Certificate` we use, so pkijs itself is never imported here. */
interface SchemaEncodable {
  toSchema(): { toBER(sizeOnly?: boolean): ArrayBuffer }
}

function isSchemaEncodable(value: unknown): value is SchemaEncodable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toSchema?: unknown }).toSchema === 'function'
  )
}

/**
 * The DER bytes of a certificate given as PEM text, DER bytes, or this backend's native object
 * (a pkijs `Certificate`, recognised by its `toSchema().toBER()` so that pkijs is not loaded).
 *
 * @throws CryptoError `invalid-certificate` for anything else, naming the kind of value.
 */
export function certificateBytes(certificate: CertificateInput | unknown): Uint8Array {
  if (typeof certificate === 'string' || certificate instanceof Uint8Array) {
    return certificateDer(certificate)
  }
  if (isSchemaEncodable(certificate)) {
    let encoded: unknown
    try {
      encoded = certificate.toSchema().toBER(false)
    } catch {
      throw new CryptoError(
        'invalid-certificate',
        'the certificate object could not be encoded as DER',
      )
    }
    if (!(encoded instanceof ArrayBuffer)) {
      throw new CryptoError(
        'invalid-certificate',
        'the certificate object did not encode to DER bytes',
      )
    }
    return new Uint8Array(encoded)
  }
  throw new CryptoError(
    'invalid-certificate',
    `a certificate must be PEM text, DER bytes or a pkijs Certificate, not ${kindOf(certificate)}`,
  )
}

function kindOf(value: unknown): string {
  if (value instanceof ArrayBuffer) return 'an ArrayBuffer (wrap it in a Uint8Array)'
  const kind = describeKind(value)
  return kind === 'an object' ? 'an object of another shape' : kind
}
