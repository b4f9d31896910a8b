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
 * Decodes the content octets of an OBJECT IDENTIFIER to its dotted form.
 *
 * @throws CryptoError `reason` (default `invalid-certificate`) for empty content, a
 *   sub-identifier with a redundant leading `0x80` octet, or a truncated last sub-identifier.
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
  // Arcs stay plain numbers while they are exact (every certificate OID but UUID arcs) and
  // become bigints only when they grow past 2^46; parsing reads several OIDs per certificate.
  const arcs: (number | bigint)[] = []
  let value: number | bigint = 0
  let startsArc = true
  for (const octet of content) {
    if (startsArc && octet === 0x80) fail('a sub-identifier is not minimally encoded')
    value =
      typeof value === 'number' && value < 2 ** 46
        ? value * 128 + (octet & 0x7f)
        : (BigInt(value) << 7n) | BigInt(octet & 0x7f)
    startsArc = (octet & 0x80) === 0
    if (startsArc) {
      arcs.push(value)
      value = 0
    }
  }
  if (!startsArc) fail('the last sub-identifier is truncated')
  const [combined = 0, ...rest] = arcs
  // The first sub-identifier packs two arcs: 40 * first + second, with first at most 2.
  if (typeof combined === 'number') {
    const first = combined < 80 ? Math.floor(combined / 40) : 2
    return [first, combined - first * 40, ...rest].join('.')
  }
  return ['2', combined - 80n, ...rest].join('.')
}
