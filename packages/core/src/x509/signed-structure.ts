import { bytesEqual } from '../crypto/bytes.js'
import type { VerificationAlgorithm } from '../crypto/signature-check.js'
import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { readAlgorithmIdentifier } from './algorithm-identifier.js'
import { type DerElement, readDerChildren } from './der.js'
import {
  decodeOctetAlignedBitString,
  derTag,
  expectTag,
  readDerDocumentWithTag,
} from './der-values.js'
import { signatureAlgorithmOf } from './signature-algorithm.js'
import { signatureToJose } from './signature-value.js'

/** The signed X.509 structures, with the names their messages use. */
const kinds = {
  certificate: {
    reason: 'invalid-certificate',
    whole: 'the certificate',
    tbs: 'tbsCertificate',
    signature: 'the signature',
  },
  CRL: {
    reason: 'invalid-crl',
    whole: 'the CRL',
    tbs: 'tbsCertList',
    signature: 'the CRL signature',
  },
} as const satisfies Record<
  string,
  { reason: CryptoErrorReason; whole: string; tbs: string; signature: string }
>

/**
 * The outer layer a certificate and a CRL share:
 * `SEQUENCE { tbs SEQUENCE, signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }`.
 */
export interface SignedStructure {
  readonly kind: keyof typeof kinds
  /** A private copy of the input: callers may reuse their buffer, parsed values never change. */
  readonly der: Uint8Array
  /** The TBS part: the bytes the issuer signed. */
  readonly tbs: DerElement
  /** The outer `signatureAlgorithm`. */
  readonly algorithm: DerElement
  /** The signature as it is in the BIT STRING. */
  readonly signatureBits: Uint8Array
}

/**
 * Reads the outer layer of a DER certificate or CRL; the TBS part is left to the caller.
 *
 * @throws CryptoError `invalid-certificate` or `invalid-crl` for input that is not bytes, not
 *   DER, has trailing bytes, or does not have exactly those three fields.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.1 (certificates)
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-5.1.1 (CRLs)
 */
export function readSignedStructure(der: Uint8Array, kind: keyof typeof kinds): SignedStructure {
  const { reason, whole, tbs, signature } = kinds[kind]
  if (!(der instanceof Uint8Array)) throw new CryptoError(reason, `${whole} is not DER bytes`)
  const bytes = new Uint8Array(der)
  const outer = readDerDocumentWithTag(bytes, derTag.sequence, whole, reason)
  const [tbsElement, algorithm, signatureElement, extra] = readDerChildren(outer, reason)
  if (extra !== undefined) throw new CryptoError(reason, `${whole} has more than three fields`)
  return {
    kind,
    der: bytes,
    tbs: expectTag(tbsElement, derTag.sequence, tbs, reason),
    algorithm: expectTag(algorithm, derTag.sequence, `${signature} algorithm`, reason),
    signatureBits: decodeOctetAlignedBitString(
      expectTag(signatureElement, derTag.bitString, signature, reason).content,
      signature,
      reason,
    ),
  }
}

/**
 * The verification algorithm and JOSE-form signature of a signed structure, once the TBS part
 * has given its own copy of the signature algorithm.
 *
 * @throws CryptoError `invalid-certificate` or `invalid-crl` when the algorithm inside the TBS
 *   part differs from the outer one (RFC 5280 §4.1.1.2, §5.1.1.2) or is not an
 *   AlgorithmIdentifier. An unsupported algorithm is not an error: it is `undefined`.
 */
export function readSignature(
  signed: SignedStructure,
  innerAlgorithm: DerElement,
): { signatureAlgorithm: VerificationAlgorithm | undefined; signature: Uint8Array } {
  const { reason, tbs, signature } = kinds[signed.kind]
  if (!bytesEqual(innerAlgorithm.bytes, signed.algorithm.bytes)) {
    throw new CryptoError(
      reason,
      `the signature algorithm inside ${tbs} differs from the outer one`,
    )
  }
  const signatureAlgorithm = signatureAlgorithmOf(
    readAlgorithmIdentifier(signed.algorithm, `${signature} algorithm`, reason),
  )
  return {
    signatureAlgorithm,
    signature: signatureToJose(signatureAlgorithm, signed.signatureBits),
  }
}
