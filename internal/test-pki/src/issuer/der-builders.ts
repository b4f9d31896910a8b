/**
 * DER encoders for the values a certificate or CRL contains, on top of core's minimal encoder.
 * Test code only: inputs are trusted constants and dates chosen by tests.
 */
import { concatBytes, encodeDer, encodeDerOid, encodeDerSequence } from '@fhir-auth/core/backend'

export { concatBytes, encodeDer, encodeDerOid, encodeDerSequence }

/** Encodes an INTEGER from a bigint: minimal two's complement, with the sign octet DER needs. */
export function encodeInteger(value: bigint): Uint8Array {
  // Two's complement in the fewest octets (X.690 §8.3.2); negative values for the negative
  // serial numbers some CAs issued.
  let octets = 1
  while (value < -(1n << BigInt(8 * octets - 1)) || value >= 1n << BigInt(8 * octets - 1)) octets++
  const unsigned = value < 0n ? value + (1n << BigInt(8 * octets)) : value
  const hex = unsigned.toString(16).padStart(2 * octets, '0')
  return encodeDer(
    0x02,
    Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)),
  )
}

export function encodeBoolean(value: boolean): Uint8Array {
  return encodeDer(0x01, Uint8Array.of(value ? 0xff : 0))
}

export function encodeOctetString(bytes: Uint8Array): Uint8Array {
  return encodeDer(0x04, bytes)
}

/** A BIT STRING holding whole octets (keys, signatures). */
export function encodeBitString(bytes: Uint8Array): Uint8Array {
  return encodeDer(0x03, concatBytes(Uint8Array.of(0), bytes))
}

/** A named-bit BIT STRING (keyUsage): bit 0 is the most significant bit, trailing zeros dropped. */
export function encodeNamedBits(bits: readonly number[]): Uint8Array {
  const highest = Math.max(...bits)
  const octets = new Uint8Array(Math.floor(highest / 8) + 1)
  for (const bit of bits)
    octets[Math.floor(bit / 8)] = (octets[Math.floor(bit / 8)] as number) | (0x80 >> (bit % 8))
  return encodeDer(0x03, concatBytes(Uint8Array.of(7 - (highest % 8)), octets))
}

export function encodeUtf8String(text: string): Uint8Array {
  return encodeDer(0x0c, new TextEncoder().encode(text))
}

export function encodePrintableString(text: string): Uint8Array {
  return encodeDer(0x13, new TextEncoder().encode(text))
}

export function encodeIa5String(text: string, tag = 0x16): Uint8Array {
  return encodeDer(tag, new TextEncoder().encode(text))
}

/** `[n] EXPLICIT`: a constructed context-specific wrapper around one element. */
export function encodeExplicit(tagNumber: number, inner: Uint8Array): Uint8Array {
  return encodeDer(0xa0 | tagNumber, inner)
}

/**
 * A certificate or CRL time: UTCTime for 1950–2049, GeneralizedTime from 2050, as RFC 5280
 * §4.1.2.5 requires. Milliseconds are dropped.
 */
export function encodeTime(date: Date): Uint8Array {
  const iso = date.toISOString()
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`
  const year = date.getUTCFullYear()
  if (year >= 1950 && year < 2050) return encodeDer(0x17, new TextEncoder().encode(digits.slice(2)))
  return encodeDer(0x18, new TextEncoder().encode(digits))
}

/** The parts of a distinguished name the test PKI writes, most significant first. */
export interface NameParts {
  readonly country?: string
  readonly organization?: string
  readonly organizationalUnit?: string
  readonly commonName: string
}

/** Encodes `C`, `O`, `OU`, `CN` (those present) as an X.509 Name, one attribute per RDN. */
export function encodeName(parts: NameParts): Uint8Array {
  const attributes: Array<[string, Uint8Array]> = []
  if (parts.country !== undefined)
    attributes.push(['2.5.4.6', encodePrintableString(parts.country)])
  if (parts.organization !== undefined)
    attributes.push(['2.5.4.10', encodeUtf8String(parts.organization)])
  if (parts.organizationalUnit !== undefined)
    attributes.push(['2.5.4.11', encodeUtf8String(parts.organizationalUnit)])
  attributes.push(['2.5.4.3', encodeUtf8String(parts.commonName)])
  return encodeDerSequence(
    ...attributes.map(([oid, value]) =>
      encodeDer(0x31, encodeDerSequence(encodeDerOid(oid), value)),
    ),
  )
}

/** An `Extension ::= SEQUENCE { extnID, critical DEFAULT FALSE, extnValue OCTET STRING }`. */
export function encodeExtension(oid: string, critical: boolean, value: Uint8Array): Uint8Array {
  return encodeDerSequence(
    encodeDerOid(oid),
    ...(critical ? [encodeBoolean(true)] : []),
    encodeOctetString(value),
  )
}
