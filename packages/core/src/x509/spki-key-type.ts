import type { KeyDescription } from '../crypto/algorithms.js'
import { CryptoError } from '../errors/crypto-error.js'
import { type DerElement, readDerElement } from './der-element.js'

/*
 * What a verifier must know before it hands a SubjectPublicKeyInfo to its platform (WebCrypto's
 * `importKey('spki')` takes the key type and curve as parameters), with the element reader as
 * its only DER code: verifying an ID token's signature in a browser loads this file, not the
 * X.509 readers of `spki.ts`. It refuses exactly what `describeSubjectPublicKeyInfo` refuses,
 * with the same reasons (a test compares the two on damaged keys), and builds no JWK.
 */

/** Content octets (hex) of the OIDs: `rsaEncryption` (RFC 8017 A.1), `id-ecPublicKey` (RFC 5480). */
const rsaEncryption = '2a864886f70d010101'
const ecPublicKey = '2a8648ce3d0201'

/** The named curves we accept, by the hex content octets of their OIDs (RFC 5480 §2.1.1.1). */
const curves: Readonly<Record<string, readonly [name: string, size: number]>> = {
  '2a8648ce3d030107': ['P-256', 32],
  '2b81040022': ['P-384', 48],
  '2b81040023': ['P-521', 66],
}

const invalid = (problem: string): never => {
  throw new CryptoError('invalid-key', `the SubjectPublicKeyInfo ${problem}`)
}

/**
 * The children of a constructed element with the given tag, at most two (each SEQUENCE read here
 * has two fields, the last one optional in an AlgorithmIdentifier); `what` names it.
 */
function children(element: DerElement | undefined, tag: number, what: string): DerElement[] {
  if (element?.tag !== tag) return invalid(`has no ${what} where one belongs`)
  const found: DerElement[] = []
  let offset = 0
  while (offset < element.content.length) {
    const child = readDerElement(element.content, offset, 'invalid-key')
    found.push(child)
    offset += child.bytes.length
  }
  if (found.length > 2) invalid(`${what} has more than two fields`)
  return found
}

/** `bytes` as exactly one DER element (no trailing bytes), read as a constructed `tag`. */
function document(bytes: Uint8Array, tag: number, what: string): DerElement[] {
  const element = readDerElement(bytes, 0, 'invalid-key')
  if (element.bytes.length !== bytes.length) invalid(`has bytes after its ${what}`)
  return children(element, tag, what)
}

/** The OID's content octets in hex, once checked to be a well-formed OBJECT IDENTIFIER. */
function oidHex(element: DerElement | undefined, what: string): string {
  const octets = element?.tag === 0x06 ? element.content : invalid(`has no ${what} OID`)
  // X.690 §8.19: no sub-identifier opens with 0x80, and the last octet ends one.
  const opensWith80 = octets.some(
    (octet, index) => octet === 0x80 && (index === 0 || !((octets[index - 1] as number) & 0x80)),
  )
  if (opensWith80 || (octets.at(-1) ?? 0x80) & 0x80) invalid(`has a malformed ${what} OID`)
  return Array.from(octets, (octet) => octet.toString(16).padStart(2, '0')).join('')
}

/** Checks that an INTEGER is minimal and non-negative (RFC 8017's RSAPublicKey members). */
function checkUnsignedInteger(element: DerElement | undefined, what: string): void {
  const [first, second] = element?.tag === 0x02 ? element.content : []
  // Empty, negative, or a leading 0x00 that no high bit needs (X.690 §8.3.2).
  if (
    first === undefined ||
    first & 0x80 ||
    (first === 0 && second !== undefined && !(second & 0x80))
  )
    invalid(`has an RSA ${what} that is not a minimal non-negative INTEGER`)
}

/**
 * The key type of a DER SubjectPublicKeyInfo, and the curve of an EC key: RSA, or EC on P-256,
 * P-384 or P-521 with an uncompressed point of the curve's length. Only the structure is read;
 * whether the numbers make a usable key is the platform's to say when it imports them.
 *
 * @throws CryptoError `invalid-key` for malformed DER or a point of the wrong length;
 *   `unsupported-key` for other key types, other curves or a compressed point — the reasons
 *   `describeSubjectPublicKeyInfo` gives.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.2.7
 * @see https://www.rfc-editor.org/rfc/rfc5480#section-2
 */
export function readPublicKeyType(spki: Uint8Array): KeyDescription {
  const [algorithmElement, keyElement] = document(spki, 0x30, 'SEQUENCE')
  const [algorithm, parameters] = children(algorithmElement, 0x30, 'algorithm SEQUENCE')
  const algorithmOid = oidHex(algorithm, 'algorithm')
  const bits = keyElement?.tag === 0x03 ? keyElement.content : new Uint8Array()
  // The first octet counts the unused bits of the last one: a key is whole octets.
  if (bits[0] !== 0) invalid('key is not a BIT STRING of whole octets')
  const key = bits.subarray(1)
  if (algorithmOid === rsaEncryption) {
    // RFC 3279 §2.3.1: NULL parameters (absent ones are tolerated, as OpenSSL does).
    if (parameters !== undefined && (parameters.tag !== 0x05 || parameters.content.length !== 0))
      invalid('has RSA key algorithm parameters that are not NULL')
    const [modulus, exponent] = document(key, 0x30, 'RSAPublicKey')
    checkUnsignedInteger(modulus, 'modulus')
    checkUnsignedInteger(exponent, 'exponent')
    return { type: 'RSA' }
  }
  if (algorithmOid !== ecPublicKey) {
    throw new CryptoError('unsupported-key', 'public keys other than RSA and EC are not supported')
  }
  const curve = curves[oidHex(parameters, 'EC named curve')]
  if (curve === undefined) {
    throw new CryptoError(
      'unsupported-key',
      'EC curves other than P-256, P-384 and P-521 are not supported',
    )
  }
  const [namedCurve, size] = curve
  if (key[0] === 0x02 || key[0] === 0x03) {
    throw new CryptoError('unsupported-key', `compressed ${namedCurve} points are not supported`)
  }
  if (key[0] !== 0x04 || key.length !== 1 + 2 * size) {
    invalid(`key is not an uncompressed ${namedCurve} point of the right length`)
  }
  return { type: 'EC', namedCurve }
}
