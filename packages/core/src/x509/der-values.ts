import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerDocument } from './der.js'

/** Universal tags of the primitive types X.509 uses. */
export const derTag = /* @__PURE__ */ Object.freeze({
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  objectIdentifier: 0x06,
  utf8String: 0x0c,
  numericString: 0x12,
  printableString: 0x13,
  teletexString: 0x14,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  visibleString: 0x1a,
  universalString: 0x1c,
  bmpString: 0x1e,
  sequence: 0x30,
  set: 0x31,
})

/**
 * Checks an element's tag.
 *
 * @param what - what the element is, for the message (`"the certificate serial number"`).
 * @throws CryptoError `reason` naming `what` and the tag found.
 */
export function expectTag(
  element: DerElement | undefined,
  tag: number,
  what: string,
  reason: CryptoErrorReason,
): DerElement {
  if (element === undefined) throw new CryptoError(reason, `${what} is missing`)
  if (element.tag !== tag) {
    throw new CryptoError(
      reason,
      `${what} has tag 0x${element.tag.toString(16).padStart(2, '0')}, expected 0x${tag.toString(16).padStart(2, '0')}`,
    )
  }
  return element
}

/**
 * Reads `bytes` as exactly one DER element with the given tag: {@link readDerDocument} and
 * {@link expectTag} in one step, for encodings nested in OCTET or BIT STRINGs (keys, extension
 * values, ECDSA signatures).
 *
 * @throws CryptoError `reason` for malformed DER, trailing bytes or another tag.
 */
export function readDerDocumentWithTag(
  bytes: Uint8Array,
  tag: number,
  what: string,
  reason: CryptoErrorReason,
): DerElement {
  return expectTag(readDerDocument(bytes, reason), tag, what, reason)
}

/**
 * True when INTEGER content octets are minimal, as DER requires (X.690 §8.3.2): more than one
 * octet only when the first nine bits are neither all zero nor all one. Otherwise one integer
 * would have several encodings (`00 ff` and `00 00 ff` both +255).
 */
export function isMinimalInteger(content: Uint8Array): boolean {
  if (content.length < 2) return true
  const first = content[0] as number
  const signOfSecond = (content[1] as number) & 0x80
  return !((first === 0x00 && signOfSecond === 0) || (first === 0xff && signOfSecond !== 0))
}

/**
 * The magnitude octets of a non-negative INTEGER, without the sign octet DER adds when the top
 * bit is set (RSA moduli, exponents, ECDSA `r` and `s`).
 *
 * @throws CryptoError `reason` for an empty, non-minimal or negative integer.
 */
export function decodeUnsignedInteger(
  content: Uint8Array,
  what: string,
  reason: CryptoErrorReason,
): Uint8Array {
  const first = content[0]
  if (first === undefined) throw new CryptoError(reason, `${what} is an empty INTEGER`)
  if (!isMinimalInteger(content)) {
    throw new CryptoError(reason, `${what} is not a minimally encoded INTEGER`)
  }
  if (first & 0x80) throw new CryptoError(reason, `${what} is negative`)
  return first === 0 && content.length > 1 ? content.subarray(1) : content
}

/**
 * The magnitude octets of a non-negative INTEGER element (see {@link decodeUnsignedInteger}).
 *
 * @throws CryptoError `reason` when the element is missing, is not an INTEGER or is not a
 *   minimal non-negative one.
 */
export function readUnsignedInteger(
  element: DerElement | undefined,
  what: string,
  reason: CryptoErrorReason,
): Uint8Array {
  return decodeUnsignedInteger(
    expectTag(element, derTag.integer, what, reason).content,
    what,
    reason,
  )
}

/**
 * A small non-negative INTEGER element (versions, PSS salt lengths) as a number.
 *
 * @throws CryptoError `reason` as {@link readUnsignedInteger}, or when it exceeds four octets.
 */
export function readSmallInteger(
  element: DerElement | undefined,
  what: string,
  reason: CryptoErrorReason,
): number {
  const magnitude = readUnsignedInteger(element, what, reason)
  if (magnitude.length > 4) throw new CryptoError(reason, `${what} is too large`)
  let value = 0
  for (const octet of magnitude) value = value * 256 + octet
  return value
}

/**
 * The bits of a BIT STRING whose length is a whole number of octets (signatures, public keys).
 *
 * @throws CryptoError `reason` when the string is empty or has unused bits.
 */
export function decodeOctetAlignedBitString(
  content: Uint8Array,
  what: string,
  reason: CryptoErrorReason,
): Uint8Array {
  if (content.length === 0) throw new CryptoError(reason, `${what} is an empty BIT STRING`)
  if (content[0] !== 0) throw new CryptoError(reason, `${what} has unused bits`)
  return content.subarray(1)
}

/**
 * Checks a BIT STRING's content: the unused-bits octet, at most 7 unused bits, none without a
 * last octet, and the unused bits zero (X.690 §8.6.2, §11.2.1).
 *
 * @throws CryptoError `reason` naming `what`.
 */
export function checkBitString(content: Uint8Array, what: string, reason: CryptoErrorReason): void {
  const unused = content[0]
  if (unused === undefined) throw new CryptoError(reason, `${what} is an empty BIT STRING`)
  // With no octet after the count, the count itself is the last octet: its own low bits are
  // set for every count from 1 to 7, so the last check also refuses unused bits without bits.
  const last = content[content.length - 1] as number
  if (unused > 7 || (last & ((1 << unused) - 1)) !== 0)
    throw new CryptoError(reason, `${what} has invalid unused bits`)
}
