import { CryptoError } from '../errors/crypto-error.js'
import { derTag, readDerDocumentWithTag } from './der-values.js'

/**
 * The `KeyUsage` bits the path policy acts on, by their RFC 5280 names. The others
 * (nonRepudiation, keyEncipherment, …) are read but never decide a verdict.
 */
export type KeyUsagePurpose = 'digitalSignature' | 'keyCertSign' | 'cRLSign'

/**
 * A certificate's `keyUsage` extension: which of the nine named bits are set. `bits[0]` is
 * digitalSignature, `bits[5]` keyCertSign, `bits[6]` cRLSign (RFC 5280 §4.2.1.3).
 */
export interface KeyUsage {
  /** Named bits 0–8 in order; bits beyond decipherOnly (8) are ignored. */
  readonly bits: readonly boolean[]
}

/** Bit numbers of the purposes the policy checks. */
const purposeBits: Readonly<Record<KeyUsagePurpose, number>> = /* @__PURE__ */ Object.freeze({
  digitalSignature: 0,
  keyCertSign: 5,
  cRLSign: 6,
})

/** Every named bit of `KeyUsage`, in bit order (bit 0 first). */
export const keyUsageBitNames = /* @__PURE__ */ Object.freeze([
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const)

const reason = 'invalid-certificate'

/**
 * Reads the value of a `keyUsage` extension: `KeyUsage ::= BIT STRING { digitalSignature (0),
 * …, decipherOnly (8) }`. Trailing zero bits that DER would drop are tolerated (some CAs write
 * whole octets); the unused-bits count must still be 0–7, and 0 when the string is empty.
 *
 * @throws CryptoError `invalid-certificate` when the value is not one BIT STRING or its
 *   unused-bits octet is impossible.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.3
 */
export function readKeyUsage(value: Uint8Array): KeyUsage {
  const { content } = readDerDocumentWithTag(value, derTag.bitString, 'keyUsage', reason)
  const unusedBits = content[0]
  if (unusedBits === undefined) throw new CryptoError(reason, 'keyUsage is an empty BIT STRING')
  if (unusedBits > 7 || (content.length === 1 && unusedBits !== 0)) {
    throw new CryptoError(reason, `keyUsage declares ${unusedBits} unused bits`)
  }
  const significantBits = (content.length - 1) * 8 - unusedBits
  const bits = keyUsageBitNames.map((_, bit) => {
    if (bit >= significantBits) return false
    const octet = content[1 + Math.floor(bit / 8)] as number
    return (octet & (0x80 >> (bit % 8))) !== 0
  })
  return Object.freeze({ bits: Object.freeze(bits) })
}

/** True when `keyUsage` is absent (no restriction) or has the purpose's bit set. */
export function keyUsageAllows(keyUsage: KeyUsage | undefined, purpose: KeyUsagePurpose): boolean {
  return keyUsage === undefined || keyUsage.bits[purposeBits[purpose]] === true
}

/** The names of the bits set, for messages: `"keyEncipherment, dataEncipherment"` or `"none"`. */
export function describeKeyUsage(keyUsage: KeyUsage): string {
  const names = keyUsageBitNames.filter((_, bit) => keyUsage.bits[bit] === true)
  return names.length === 0 ? 'none' : names.join(', ')
}
