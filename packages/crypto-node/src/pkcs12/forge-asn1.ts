import { CryptoError } from '@fhir-auth/core'
import type { ForgeApi, ForgeAsn1 } from './forge-api.js'

const universalClass = 0x00
const contextSpecificClass = 0x80

/** Universal tag numbers used by PKCS#12. */
export const asn1Tag = Object.freeze({ integer: 2, octetString: 4, oid: 6, sequence: 16, set: 17 })

/** A `pkcs12-invalid` error naming the structure that is malformed. */
export function malformed(what: string): CryptoError {
  return new CryptoError('pkcs12-invalid', `the PKCS#12 file is malformed: ${what}`)
}

/**
 * Parses BER (PKCS#12 files are BER: some tools write indefinite lengths and chunked OCTET
 * STRINGs) with forge, which keeps primitive contents byte for byte.
 *
 * @throws CryptoError `pkcs12-invalid` naming `what` when the bytes are not one BER element.
 * @internal
 */
export function parseBer(forge: ForgeApi, bytes: string, what: string): ForgeAsn1 {
  try {
    // strict: refuse lengths that run past the end (truncated files); indefinite lengths are
    // still accepted.
    return forge.asn1.fromDer(bytes, {
      strict: true,
      parseAllBytes: true,
      decodeBitStrings: false,
    })
  } catch {
    throw malformed(`${what} is not valid ASN.1`)
  }
}

/**
 * The children of a universal constructed element with tag `tag`.
 *
 * @throws CryptoError `pkcs12-invalid` naming `what` otherwise.
 * @internal
 */
export function childrenOf(element: ForgeAsn1 | undefined, tag: number, what: string): ForgeAsn1[] {
  if (
    element === undefined ||
    element.tagClass !== universalClass ||
    element.type !== tag ||
    !Array.isArray(element.value)
  ) {
    throw malformed(`${what} is not a ${tag === asn1Tag.set ? 'SET' : 'SEQUENCE'}`)
  }
  return element.value
}

/**
 * The content of an `[0] EXPLICIT` wrapper.
 *
 * @throws CryptoError `pkcs12-invalid` naming `what` when the wrapper is missing.
 * @internal
 */
export function explicitContent(element: ForgeAsn1 | undefined, what: string): ForgeAsn1 {
  const inner =
    element !== undefined &&
    element.tagClass === contextSpecificClass &&
    element.type === 0 &&
    Array.isArray(element.value)
      ? element.value[0]
      : undefined
  if (inner === undefined) throw malformed(`${what} has no [0] content`)
  return inner
}

/**
 * The bytes of an OCTET STRING, joining the chunks of a constructed (BER) one.
 *
 * @throws CryptoError `pkcs12-invalid` naming `what` for another element.
 * @internal
 */
export function octetStringBytes(element: ForgeAsn1 | undefined, what: string): string {
  if (element?.tagClass === universalClass && element.type === asn1Tag.octetString) {
    if (typeof element.value === 'string') return element.value
    return element.value.map((chunk) => octetStringBytes(chunk, what)).join('')
  }
  throw malformed(`${what} is not an OCTET STRING`)
}

/**
 * The dotted form of an OBJECT IDENTIFIER.
 *
 * @throws CryptoError `pkcs12-invalid` naming `what` for another element.
 * @internal
 */
export function objectIdentifier(
  forge: ForgeApi,
  element: ForgeAsn1 | undefined,
  what: string,
): string {
  if (
    element?.tagClass === universalClass &&
    element.type === asn1Tag.oid &&
    typeof element.value === 'string'
  ) {
    return forge.asn1.derToOid(element.value)
  }
  throw malformed(`${what} is not an OBJECT IDENTIFIER`)
}

/**
 * A small non-negative INTEGER (versions, iteration counts).
 *
 * @throws CryptoError `pkcs12-invalid` naming `what` for another element or a value above 2^31.
 * @internal
 */
export function smallInteger(element: ForgeAsn1 | undefined, what: string): number {
  if (
    element?.tagClass === universalClass &&
    element.type === asn1Tag.integer &&
    typeof element.value === 'string' &&
    element.value.length > 0 &&
    element.value.length <= 4
  ) {
    let value = 0
    for (let index = 0; index < element.value.length; index++) {
      value = value * 256 + element.value.charCodeAt(index)
    }
    if (value <= 0x7fffffff) return value
  }
  throw malformed(`${what} is not a small non-negative INTEGER`)
}
