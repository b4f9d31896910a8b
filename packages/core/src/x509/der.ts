import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerElement } from './der-element.js'

// The element reader is a file of its own: a SubjectPublicKeyInfo's key type is read with it
// alone (spki-key-type.ts), without the rest of the DER code.
export { type DerElement, readDerElement } from './der-element.js'

/** Bit of the identifier octet that marks a constructed encoding (SEQUENCE, SET, [n] EXPLICIT). */
const constructedBit = 0x20

/**
 * Reads `bytes` as exactly one DER element, refusing trailing bytes (a certificate with
 * appended data must not parse, or two different byte strings would be "the same" certificate).
 *
 * @throws CryptoError `reason` (default `invalid-certificate`) for malformed input or trailing bytes.
 */
export function readDerDocument(
  bytes: Uint8Array,
  reason: CryptoErrorReason = 'invalid-certificate',
): DerElement {
  const element = readDerElement(bytes, 0, reason)
  if (element.bytes.length !== bytes.length) {
    throw new CryptoError(
      reason,
      `malformed DER: ${bytes.length - element.bytes.length} bytes follow the outer element`,
    )
  }
  return element
}

/**
 * The children of a constructed element (SEQUENCE, SET, `[n] EXPLICIT`), in order.
 *
 * @throws CryptoError `reason` (default `invalid-certificate`) when the element is primitive or a
 *   child is malformed.
 */
export function readDerChildren(
  element: DerElement,
  reason: CryptoErrorReason = 'invalid-certificate',
): DerElement[] {
  if ((element.tag & constructedBit) === 0) {
    throw new CryptoError(
      reason,
      `malformed DER: element with tag 0x${element.tag.toString(16)} is not constructed`,
    )
  }
  const children: DerElement[] = []
  let offset = 0
  while (offset < element.content.length) {
    const child = readDerElement(element.content, offset, reason)
    children.push(child)
    offset += child.bytes.length
  }
  return children
}

/** The DER length octets for `length`: short form below 128, else minimal long form. */
function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length)
  const octets: number[] = []
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256)
  return Uint8Array.of(0x80 | octets.length, ...octets)
}

/** Concatenates byte arrays into one new array. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let total = 0
  for (const part of parts) total += part.length
  const output = new Uint8Array(total)
  let offset = 0
  for (const part of parts) {
    output.set(part, offset)
    offset += part.length
  }
  return output
}

/**
 * Encodes one DER element from its identifier octet and content octets.
 *
 * @see https://www.itu.int/rec/T-REC-X.690 (X.690 §10.1, definite minimal lengths)
 */
export function encodeDer(tag: number, content: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(tag), encodeLength(content.length), content)
}

/** Encodes a DER SEQUENCE of already encoded elements. */
export function encodeDerSequence(...children: Uint8Array[]): Uint8Array {
  return encodeDer(0x30, concatBytes(...children))
}
