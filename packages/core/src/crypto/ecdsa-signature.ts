import { CryptoError } from '../errors/crypto-error.js'

/** Byte length of one ECDSA integer (`r` or `s`) per JOSE algorithm or curve. */
export const ecdsaComponentLength: Readonly<Record<string, number>> = /* @__PURE__ */ Object.freeze(
  {
    ES256: 32,
    ES384: 48,
    ES512: 66,
    'P-256': 32,
    'P-384': 48,
    'P-521': 66,
  },
)

/**
 * Converts a DER `ECDSA-Sig-Value` (as X.509, HSMs and KMSs produce) to JOSE `r‖s` with each
 * integer left-padded to `componentLength` bytes.
 *
 * @throws CryptoError `invalid-signature` for anything that is not a well-formed DER signature.
 */
export function ecdsaDerToJose(der: Uint8Array, componentLength: number): Uint8Array {
  const fail = (): never => {
    throw new CryptoError('invalid-signature', 'ECDSA signature is neither JOSE r‖s nor DER')
  }
  let offset = 0
  const readLength = (): number => {
    const first = der[offset++] ?? fail()
    if (first < 0x80) return first
    const count = first & 0x7f
    if (count === 0 || count > 2) fail()
    let length = 0
    for (let index = 0; index < count; index++) length = (length << 8) | (der[offset++] ?? fail())
    return length
  }
  if (der[offset++] !== 0x30) fail()
  const sequenceLength = readLength()
  if (offset + sequenceLength !== der.length) fail()
  const output = new Uint8Array(componentLength * 2)
  for (let part = 0; part < 2; part++) {
    if (der[offset++] !== 0x02) fail()
    const length = readLength()
    let integer = der.subarray(offset, offset + length)
    if (integer.length !== length || length === 0) fail()
    offset += length
    while (integer.length > 1 && integer[0] === 0) integer = integer.subarray(1)
    if (integer.length > componentLength) fail()
    output.set(integer, part * componentLength + componentLength - integer.length)
  }
  if (offset !== der.length) fail()
  return output
}

/**
 * Returns a JOSE `r‖s` ECDSA signature, converting from DER when a signer returned that.
 *
 * @throws CryptoError `invalid-signature` when the bytes are neither form.
 */
export function normalizeEcdsaSignature(
  signature: Uint8Array,
  componentLength: number,
): Uint8Array {
  if (signature.length === componentLength * 2) return signature
  return ecdsaDerToJose(signature, componentLength)
}
