import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'

/**
 * One DER tag-length-value element. `bytes` and `content` are views into the input, not copies.
 */
export interface DerElement {
  /** The identifier octet (class, constructed bit and tag number), e.g. `0x30` for SEQUENCE. */
  readonly tag: number
  /** Length of the identifier and length octets. */
  readonly header: number
  /** The whole element: identifier, length and content octets. */
  readonly bytes: Uint8Array
  /** The content octets only. */
  readonly content: Uint8Array
}

/** Bit of the identifier octet that marks a constructed encoding (SEQUENCE, SET, [n] EXPLICIT). */
const constructedBit = 0x20

/** Largest content length we read; four length octets are more than any certificate needs. */
const maximumLengthOctets = 4

/**
 * Reads the DER element that starts at `offset`.
 *
 * Strict DER only: one-octet tags (high tag numbers never occur in X.509, PKCS#8 or CRLs),
 * definite lengths in the minimal number of octets, and content that fits inside `bytes`. Bytes
 * after the element are left to the caller, who decides whether they are allowed.
 *
 * @param reason - the `CryptoError` reason to report, so key parsing can say `invalid-key` and
 *   CRL parsing `invalid-crl`.
 * @throws CryptoError `reason` (default `invalid-certificate`) for truncated or non-DER input;
 *   the message names the offset, never the bytes.
 * @see https://www.itu.int/rec/T-REC-X.690 (X.690 §8.1 and §10.1)
 */
export function readDerElement(
  bytes: Uint8Array,
  offset = 0,
  reason: CryptoErrorReason = 'invalid-certificate',
): DerElement {
  const fail = (problem: string): never => {
    throw new CryptoError(reason, `malformed DER at offset ${offset}: ${problem}`)
  }
  if (!(bytes instanceof Uint8Array)) fail('the input is not a byte array')
  const tag = bytes[offset] ?? fail('expected an element, found the end of the input')
  if ((tag & 0x1f) === 0x1f) fail('multi-octet tags are not supported')
  const first = bytes[offset + 1] ?? fail('the length is missing')
  let header = 2
  let length = first
  if (first === 0x80) fail('indefinite lengths are not allowed in DER')
  if (first > 0x80) {
    const count = first & 0x7f
    if (count > maximumLengthOctets) fail(`a length of ${count} octets is too large`)
    length = 0
    for (let index = 0; index < count; index++) {
      const octet = bytes[offset + 2 + index] ?? fail('the length is truncated')
      if (index === 0 && octet === 0) fail('the length is not minimally encoded')
      length = length * 256 + octet
    }
    // DER uses the long form only when the short form cannot hold the length.
    if (length < 0x80) fail('the length is not minimally encoded')
    header += count
  }
  const end = offset + header + length
  if (end > bytes.length)
    fail(`the content needs ${length} bytes, ${bytes.length - offset - header} remain`)
  return {
    tag,
    header,
    bytes: bytes.subarray(offset, end),
    content: bytes.subarray(offset + header, end),
  }
}

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
