import { base64UrlEncode } from '../crypto/base64.js'
import type { Jwk } from '../crypto/jwk.js'
import { CryptoError } from '../errors/crypto-error.js'
import { readAlgorithmIdentifier } from '../x509/algorithm-identifier.js'
import { readDerChildren } from '../x509/der.js'
import {
  decodeOctetAlignedBitString,
  derTag,
  expectTag,
  readDerDocumentWithTag,
  readUnsignedInteger,
} from '../x509/der-values.js'
import { decodeDerOid } from '../x509/object-identifier.js'
import { decodePemBlocks } from '../x509/pem.js'
import { describePrivateKeyPem } from '../x509/private-key.js'
import {
  describeEcPublicKey,
  describeSubjectPublicKeyInfo,
  ecPublicKeyOid,
  rsaEncryptionOid,
} from '../x509/spki.js'

const reason = 'invalid-key'

/**
 * The public JWK (`kty` and the public members only) of a PEM key: a private key (PKCS#8,
 * PKCS#1 RSA, SEC1 EC) or a `PUBLIC KEY` (SubjectPublicKeyInfo).
 *
 * @throws CryptoError `invalid-key` for unreadable PEM or an EC private key that does not carry
 *   its public point (every common tool writes it); `unsupported-key` for other key types.
 * @see https://www.rfc-editor.org/rfc/rfc5208#section-5 (PKCS#8)
 * @see https://www.rfc-editor.org/rfc/rfc5915#section-3 (ECPrivateKey's `publicKey`)
 */
export function publicJwkOfPem(pem: string): Jwk {
  if (
    !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem) &&
    pem.includes('-----BEGIN PUBLIC KEY-----')
  ) {
    const [spki] = decodePemBlocks(pem, 'PUBLIC KEY', reason)
    if (spki === undefined) throw new CryptoError(reason, 'the PEM PUBLIC KEY block is empty')
    return publicJwkOfSpki(spki)
  }
  return publicJwkOfPkcs8(describePrivateKeyPem(pem).pkcs8)
}

/** The public JWK of a DER SubjectPublicKeyInfo (see {@link publicJwkOfPem}). */
export function publicJwkOfSpki(spki: Uint8Array): Jwk {
  return describeSubjectPublicKeyInfo(spki).jwk
}

/** The public JWK of an unencrypted PKCS#8 private key (see {@link publicJwkOfPem}). */
export function publicJwkOfPkcs8(pkcs8: Uint8Array): Jwk {
  const outer = readDerDocumentWithTag(pkcs8, derTag.sequence, 'PrivateKeyInfo', reason)
  const [, algorithmElement, privateKey] = readDerChildren(outer, reason)
  const algorithm = readAlgorithmIdentifier(algorithmElement, 'the private key algorithm', reason)
  const keyBytes = expectTag(privateKey, derTag.octetString, 'the private key', reason).content
  if (algorithm.oid === rsaEncryptionOid) {
    // RSAPrivateKey ::= SEQUENCE { version, modulus, publicExponent, … } (RFC 8017 A.1.2).
    const sequence = readDerDocumentWithTag(keyBytes, derTag.sequence, 'RSAPrivateKey', reason)
    const [, modulus, exponent] = readDerChildren(sequence, reason)
    return {
      kty: 'RSA',
      n: base64UrlEncode(readUnsignedInteger(modulus, 'the RSA modulus', reason)),
      e: base64UrlEncode(readUnsignedInteger(exponent, 'the RSA exponent', reason)),
    }
  }
  if (algorithm.oid === ecPublicKeyOid) {
    const curveOid = decodeDerOid(
      expectTag(algorithm.parameters, derTag.objectIdentifier, 'the EC named curve', reason)
        .content,
      reason,
    )
    const sequence = readDerDocumentWithTag(keyBytes, derTag.sequence, 'ECPrivateKey', reason)
    const publicKey = readDerChildren(sequence, reason).find((field) => field.tag === 0xa1)
    if (publicKey === undefined) {
      throw new CryptoError(
        reason,
        'the EC private key does not carry its public key; re-export it with OpenSSL or Node',
      )
    }
    const [bits] = readDerChildren(publicKey, reason)
    const point = decodeOctetAlignedBitString(
      expectTag(bits, derTag.bitString, 'the EC public key', reason).content,
      'the EC public key',
      reason,
    )
    return describeEcPublicKey(curveOid, point).jwk
  }
  throw new CryptoError(
    'unsupported-key',
    `private keys of algorithm ${algorithm.oid} are not supported; use RSA or EC`,
  )
}
