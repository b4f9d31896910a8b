import { ecdsaComponentLength } from '../crypto/ecdsa-signature.js'
import type { VerificationAlgorithm } from '../crypto/signature-check.js'
import { CryptoError } from '../errors/crypto-error.js'
import { readDerChildren } from './der.js'
import { derTag, readDerDocumentWithTag, readUnsignedInteger } from './der-values.js'
import type { PublicKeyDescription } from './spki.js'

/** The longest ECDSA integer we accept (P-521). */
const largestComponentLength = 66

/**
 * The signature of a certificate or CRL in the form `SignatureCheck` wants: RSA bytes as they
 * are, ECDSA converted from DER `Ecdsa-Sig-Value` to JOSE `r‖s`.
 *
 * X.509 lets any curve sign with any hash (a P-384 CA may use ecdsa-with-SHA256), so the integers
 * are padded to the algorithm's usual length, or longer when they do not fit; the chain policy
 * re-pads them to the issuer's curve with {@link signatureForIssuerKey}. An ECDSA value that is
 * not valid DER becomes an empty signature, which never verifies (`bad-signature`): the
 * certificate itself is readable, only its signature is wrong.
 */
export function signatureToJose(
  algorithm: VerificationAlgorithm | undefined,
  bits: Uint8Array,
): Uint8Array {
  // The JOSE integer length for the algorithm: the size of the curve its name implies.
  const componentLength = algorithm === undefined ? undefined : ecdsaComponentLength[algorithm]
  if (componentLength === undefined) return bits
  try {
    const reason = 'invalid-signature'
    const sequence = readDerDocumentWithTag(bits, derTag.sequence, 'Ecdsa-Sig-Value', reason)
    const [r, s, extra] = readDerChildren(sequence, reason)
    if (extra !== undefined) return new Uint8Array()
    const integers = [r, s].map((integer) =>
      readUnsignedInteger(integer, 'an ECDSA integer', reason),
    )
    const length = Math.max(componentLength, ...integers.map((integer) => integer.length))
    if (length > largestComponentLength) return new Uint8Array()
    return concatenatePadded(integers, length)
  } catch (error) {
    if (error instanceof CryptoError) return new Uint8Array()
    throw error
  }
}

/**
 * Adapts a JOSE ECDSA signature to the issuer key's curve (`r‖s`, each exactly the curve size),
 * because the hash in the algorithm name does not fix the curve. RSA signatures and signatures
 * that cannot fit the curve are returned unchanged; they then fail verification.
 */
export function signatureForIssuerKey(
  signature: Uint8Array,
  issuerKey: PublicKeyDescription,
): Uint8Array {
  const size =
    issuerKey.type === 'EC' ? ecdsaComponentLength[issuerKey.namedCurve ?? ''] : undefined
  if (
    size === undefined ||
    signature.length === 0 ||
    signature.length % 2 !== 0 ||
    signature.length === size * 2
  ) {
    return signature
  }
  const half = signature.length / 2
  const integers = [signature.subarray(0, half), signature.subarray(half)].map(stripLeadingZeros)
  if (integers.some((integer) => integer.length > size)) return signature
  return concatenatePadded(integers, size)
}

function stripLeadingZeros(integer: Uint8Array): Uint8Array {
  let start = 0
  while (start < integer.length - 1 && integer[start] === 0) start++
  return integer.subarray(start)
}

function concatenatePadded(integers: readonly Uint8Array[], length: number): Uint8Array {
  const output = new Uint8Array(length * integers.length)
  integers.forEach((integer, index) => {
    output.set(integer, index * length + length - integer.length)
  })
  return output
}
