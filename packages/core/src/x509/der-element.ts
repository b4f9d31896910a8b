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
