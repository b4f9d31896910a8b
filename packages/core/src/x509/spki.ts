import type { KeyDescription } from '../crypto/algorithms.js'
import { base64UrlEncode } from '../crypto/base64.js'
import type { Jwk } from '../crypto/jwk.js'
import { CryptoError } from '../errors/crypto-error.js'
import { readAlgorithmIdentifier } from './algorithm-identifier.js'
import { readDerChildren } from './der.js'
import {
  decodeOctetAlignedBitString,
  derTag,
  expectTag,
  readDerDocumentWithTag,
  readUnsignedInteger,
} from './der-values.js'
import { decodeDerOid } from './object-identifier.js'

/** A public key's type and curve, plus the key as a JWK (for jose or any JOSE library). */
export interface PublicKeyDescription extends KeyDescription {
  /** `{ kty: 'RSA', n, e }` or `{ kty: 'EC', crv, x, y }`. */
  readonly jwk: Jwk
}

/** `rsaEncryption` (RFC 8017 A.1). */
export const rsaEncryptionOid = '1.2.840.113549.1.1.1'
/** `id-ecPublicKey` (RFC 5480 §2.1.1). */
export const ecPublicKeyOid = '1.2.840.10045.2.1'

/** Named curves we accept, by OID, with their JOSE name and coordinate length in bytes. */
export const namedCurvesByOid: Readonly<
  Record<string, { readonly name: string; readonly size: number }>
> = /* @__PURE__ */ Object.freeze({
  '1.2.840.10045.3.1.7': { name: 'P-256', size: 32 },
  '1.3.132.0.34': { name: 'P-384', size: 48 },
  '1.3.132.0.35': { name: 'P-521', size: 66 },
})

/**
 * The named curve an OID stands for.
 *
 * @throws CryptoError `unsupported-key` for a curve other than P-256, P-384 and P-521.
 */
export function namedCurveOf(curveOid: string): { readonly name: string; readonly size: number } {
  const curve = namedCurvesByOid[curveOid]
  if (curve === undefined) {
    throw new CryptoError(
      'unsupported-key',
      `EC curve ${curveOid} is not supported; use P-256, P-384 or P-521`,
    )
  }
  return curve
}

/**
 * Describes a DER SubjectPublicKeyInfo: RSA (`n`, `e`) or EC on P-256, P-384 or P-521 with an
 * uncompressed point (`x`, `y`).
 *
 * @throws CryptoError `invalid-key` for malformed DER or a point of the wrong length;
 *   `unsupported-key` for other key types (RSA-PSS-only keys, EdDSA, DSA), other curves, or a
 *   compressed EC point.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.2.7
 * @see https://www.rfc-editor.org/rfc/rfc5480#section-2
 */
export function describeSubjectPublicKeyInfo(spki: Uint8Array): PublicKeyDescription {
  const reason = 'invalid-key'
  const outer = readDerDocumentWithTag(spki, derTag.sequence, 'SubjectPublicKeyInfo', reason)
  const [algorithmElement, keyElement, extra] = readDerChildren(outer, reason)
  if (extra !== undefined)
    throw new CryptoError(reason, 'SubjectPublicKeyInfo has more than two fields')
  const algorithm = readAlgorithmIdentifier(algorithmElement, 'the public key algorithm', reason)
  const key = decodeOctetAlignedBitString(
    expectTag(keyElement, derTag.bitString, 'the public key', reason).content,
    'the public key',
    reason,
  )
  if (algorithm.oid === rsaEncryptionOid) {
    // RFC 3279 §2.3.1: NULL parameters (absent ones are tolerated, as OpenSSL does).
    if (algorithm.parameters !== undefined && algorithm.parameters.tag !== derTag.null)
      throw new CryptoError(reason, 'the RSA key algorithm parameters are not NULL')
    return describeRsaPublicKey(key)
  }
  if (algorithm.oid === ecPublicKeyOid) {
    const parameters = expectTag(
      algorithm.parameters,
      derTag.objectIdentifier,
      'the EC named curve',
      reason,
    )
    return describeEcPublicKey(decodeDerOid(parameters.content, reason), key)
  }
  throw new CryptoError(
    'unsupported-key',
    `public keys of algorithm ${algorithm.oid} are not supported; use RSA or EC`,
  )
}

function describeRsaPublicKey(key: Uint8Array): PublicKeyDescription {
  const reason = 'invalid-key'
  const sequence = readDerDocumentWithTag(key, derTag.sequence, 'RSAPublicKey', reason)
  const [modulus, exponent, extra] = readDerChildren(sequence, reason)
  if (extra !== undefined) throw new CryptoError(reason, 'RSAPublicKey has more than two fields')
  const n = readUnsignedInteger(modulus, 'the RSA modulus', reason)
  const e = readUnsignedInteger(exponent, 'the RSA exponent', reason)
  return { type: 'RSA', jwk: { kty: 'RSA', n: base64UrlEncode(n), e: base64UrlEncode(e) } }
}

/**
 * Describes an EC public key from its curve OID and encoded point.
 *
 * @throws CryptoError `unsupported-key` for another curve or a compressed point, `invalid-key`
 *   for a point of the wrong length.
 */
export function describeEcPublicKey(curveOid: string, point: Uint8Array): PublicKeyDescription {
  const curve = namedCurveOf(curveOid)
  if (point[0] === 0x02 || point[0] === 0x03) {
    throw new CryptoError('unsupported-key', `compressed ${curve.name} points are not supported`)
  }
  if (point[0] !== 0x04 || point.length !== 1 + 2 * curve.size) {
    throw new CryptoError(
      'invalid-key',
      `the ${curve.name} public key is not an uncompressed point of the right length`,
    )
  }
  return {
    type: 'EC',
    namedCurve: curve.name,
    jwk: {
      kty: 'EC',
      crv: curve.name,
      x: base64UrlEncode(point.subarray(1, 1 + curve.size)),
      y: base64UrlEncode(point.subarray(1 + curve.size)),
    },
  }
}
