import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { encodeDer } from './der.js'

const objectIdentifierTag = 0x06

/**
 * Encodes a dotted OBJECT IDENTIFIER (`1.2.840.10045.2.1`) as a complete DER element.
 *
 * Arcs are handled as `bigint`, so UUID-based OIDs (`2.25.…`) encode exactly.
 *
 * @throws CryptoError `invalid-key` for a string that is not a valid OID (a programming error in
 *   the caller: OIDs passed here are constants).
 * @see https://www.itu.int/rec/T-REC-X.690 (X.690 §8.19)
 */
export function encodeDerOid(dotted: string): Uint8Array {
  const arcs = /^\d+(\.\d+)+$/.test(dotted) ? dotted.split('.').map(BigInt) : []
  const [first, second, ...rest] = arcs
  if (first === undefined || second === undefined || first > 2n || (first < 2n && second > 39n)) {
    throw new CryptoError('invalid-key', `${JSON.stringify(dotted)} is not an object identifier`)
  }
  const octets: number[] = []
  for (const arc of [first * 40n + second, ...rest]) {
    const group: number[] = [Number(arc & 0x7fn)]
    for (let value = arc >> 7n; value > 0n; value >>= 7n)
      group.unshift(Number(value & 0x7fn) | 0x80)
    octets.push(...group)
  }
  return encodeDer(objectIdentifierTag, Uint8Array.from(octets))
}

/**
 * The most octets one sub-identifier may take: 20 octets carry 140 bits. The widest arcs in use
 * are UUIDs under `2.25` (ITU-T X.667), 128 bits in 19 octets; OpenSSL's own table stays far
 * below. A bound keeps each arc's conversion constant-time, so decoding is linear in the content
 * length (an unbounded arc grown 7 bits at a time is quadratic: a 128 KB certificate took 0.8 s).
 */
export const maximumSubIdentifierOctets = 20

/** Arcs stay plain numbers up to this many octets (7 × 7 = 49 bits, below 2^53: exact). */
const numberArcOctets = 7

/**
 * Decodes the content octets of an OBJECT IDENTIFIER to its dotted form, in time linear in the
 * content length.
 *
 * @throws CryptoError `reason` (default `invalid-certificate`) for empty content, a
 *   sub-identifier with a redundant leading `0x80` octet, one longer than
 *   `maximumSubIdentifierOctets` (20) octets, or a truncated last sub-identifier.
 * @see https://www.itu.int/rec/T-REC-X.690 (X.690 §8.19)
 */
export function decodeDerOid(
  content: Uint8Array,
  reason: CryptoErrorReason = 'invalid-certificate',
): string {
  const fail = (problem: string): never => {
    throw new CryptoError(reason, `malformed object identifier: ${problem}`)
  }
  if (content.length === 0) fail('it is empty')
  const arcs: (number | bigint)[] = []
  let start = 0
  for (let index = 0; index < content.length; index++) {
    const octet = content[index] as number
    if (index === start && octet === 0x80) fail('a sub-identifier is not minimally encoded')
    if (index - start >= maximumSubIdentifierOctets) {
      fail(`a sub-identifier is longer than ${maximumSubIdentifierOctets} octets`)
    }
    if ((octet & 0x80) === 0) {
      arcs.push(subIdentifier(content, start, index + 1))
      start = index + 1
    }
  }
  if (start !== content.length) fail('the last sub-identifier is truncated')
  const [combined = 0, ...rest] = arcs
  // The first sub-identifier packs two arcs: 40 * first + second, with first at most 2.
  if (typeof combined === 'number') {
    const first = combined < 80 ? Math.floor(combined / 40) : 2
    return [first, combined - first * 40, ...rest].join('.')
  }
  return ['2', combined - 80n, ...rest].join('.')
}

/**
 * The value of the base-128 sub-identifier in `content[start, end)`: a number while exact, a
 * bigint beyond (the caller bounds `end - start`, so either way this is constant-time).
 */
function subIdentifier(content: Uint8Array, start: number, end: number): number | bigint {
  if (end - start <= numberArcOctets) {
    let value = 0
    for (let index = start; index < end; index++)
      value = value * 128 + ((content[index] as number) & 0x7f)
    return value
  }
  let value = 0n
  for (let index = start; index < end; index++)
    value = (value << 7n) | BigInt((content[index] as number) & 0x7f)
  return value
}
