import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import type { DerElement } from './der.js'
import { derTag, isMinimalInteger } from './der-values.js'

/*
 * The DER values only certificates and CRLs carry — times, directory strings, serial numbers,
 * booleans — apart from the ones keys need, so reading a key never loads them.
 */

/** Lowercase hex of bytes, two digits each. */
export function toHex(bytes: Uint8Array): string {
  let hex = ''
  for (const octet of bytes) hex += octet.toString(16).padStart(2, '0')
  return hex
}

/**
 * A serial number INTEGER as the canonical text of its value, the form of
 * `CertificateInfo.serialNumber`: lowercase hex without leading zero octets (`00 ff` is `"ff"`,
 * zero is `"00"`), and for negative serials (which RFC 5280 forbids but some CAs issued) `-`
 * before the hex of the absolute value, as OpenSSL prints them (`ff` is `"-01"`). One integer has
 * one text, so serial numbers compare as integers: a CRL listing −1 does not revoke +255.
 *
 * @throws CryptoError `reason` for an empty INTEGER or one that is not minimally encoded
 *   (X.690 §8.3.2): OpenSSL refuses both, and a padded serial would be a second spelling of one.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.2.2
 */
export function decodeSerialNumber(content: Uint8Array, reason: CryptoErrorReason): string {
  if (content.length === 0) throw new CryptoError(reason, 'the serial number is an empty INTEGER')
  if (!isMinimalInteger(content)) {
    throw new CryptoError(reason, 'the serial number is not a minimally encoded INTEGER')
  }
  if (((content[0] as number) & 0x80) === 0) {
    return toHex(content.length > 1 && content[0] === 0 ? content.subarray(1) : content)
  }
  return `-${toHex(withoutLeadingZeros(twosComplementNegation(content)))}`
}

/** The absolute value of a negative two's complement integer: invert every bit, add one. */
function twosComplementNegation(content: Uint8Array): Uint8Array {
  const magnitude = new Uint8Array(content.length)
  let carry = 1
  for (let index = content.length - 1; index >= 0; index--) {
    const sum = (~(content[index] as number) & 0xff) + carry
    magnitude[index] = sum & 0xff
    carry = sum >> 8
  }
  return magnitude
}

/** `bytes` without leading zero octets, keeping at least one. */
function withoutLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  return bytes.subarray(start)
}

/**
 * A BOOLEAN. DER writes TRUE as `0xff`; any non-zero octet is read as true, as BER allows.
 *
 * @throws CryptoError `reason` when the content is not exactly one octet.
 */
export function decodeBoolean(
  content: Uint8Array,
  what: string,
  reason: CryptoErrorReason,
): boolean {
  if (content.length !== 1) throw new CryptoError(reason, `${what} is not a one-octet BOOLEAN`)
  return content[0] !== 0
}

const utcTimePattern = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/
// RFC 5280 §4.1.2.5.2 and §5.1.2.4: GeneralizedTime in certificates and CRLs MUST NOT carry
// fractional seconds (OpenSSL's loader refuses them).
const generalizedTimePattern = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/

/**
 * A UTCTime (`YYMMDDHHMMSSZ`, years 50–99 are 19xx, RFC 5280 §4.1.2.5.1) or GeneralizedTime
 * (`YYYYMMDDHHMMSSZ`, RFC 5280 §4.1.2.5.2) as a `Date`.
 *
 * @throws CryptoError `reason` for another tag, a local time, missing seconds, fractional
 *   seconds or an impossible date such as February 30th.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.2.5
 */
export function decodeTime(element: DerElement, what: string, reason: CryptoErrorReason): Date {
  const text = latin1(element.content)
  let parts: RegExpExecArray | null = null
  let year = 0
  if (element.tag === derTag.utcTime) {
    parts = utcTimePattern.exec(text)
    const shortYear = Number(parts?.[1])
    year = shortYear >= 50 ? 1900 + shortYear : 2000 + shortYear
  } else if (element.tag === derTag.generalizedTime) {
    parts = generalizedTimePattern.exec(text)
    year = Number(parts?.[1])
  } else {
    throw new CryptoError(reason, `${what} is neither a UTCTime nor a GeneralizedTime`)
  }
  if (parts === null)
    throw new CryptoError(reason, `${what} is not a valid UTC time: ${JSON.stringify(text)}`)
  const [month, day, hour, minute, second] = parts.slice(2, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second))
  // Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear takes the year as given (0050 is the
  // year 50), keeping month and day. Both roll over out-of-range fields (month 13, day 32, and
  // February 29th outside leap years); the round trip below catches that.
  date.setUTCFullYear(year, month - 1, day)
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute ||
    date.getUTCSeconds() !== second
  ) {
    throw new CryptoError(reason, `${what} is not a valid date: ${JSON.stringify(text)}`)
  }
  return date
}

/**
 * The text of a directory string (UTF8String, PrintableString, IA5String, TeletexString read as
 * Latin-1, BMPString, UniversalString, …); `undefined` for any other tag.
 *
 * @throws CryptoError `reason` for invalid UTF-8, a BMP/Universal string of odd length, or one
 *   holding a surrogate code unit (UCS-2 and UCS-4 have no surrogates; a lone one is no text).
 */
export function decodeDirectoryString(
  element: DerElement,
  what: string,
  reason: CryptoErrorReason,
): string | undefined {
  const content = element.content
  switch (element.tag) {
    case derTag.utf8String:
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(content)
      } catch {
        throw new CryptoError(reason, `${what} is not valid UTF-8`)
      }
    case derTag.printableString:
    case derTag.ia5String:
    case derTag.numericString:
    case derTag.visibleString:
    case derTag.teletexString:
      return latin1(content)
    case derTag.bmpString:
      return decodeWideString(content, 2, what, reason)
    case derTag.universalString:
      return decodeWideString(content, 4, what, reason)
    default:
      return undefined
  }
}

/** One character per octet; avoids spreading very long arrays into `fromCharCode`. */
export function latin1(bytes: Uint8Array): string {
  let text = ''
  for (const octet of bytes) text += String.fromCharCode(octet)
  return text
}

function decodeWideString(
  content: Uint8Array,
  width: 2 | 4,
  what: string,
  reason: CryptoErrorReason,
): string {
  if (content.length % width !== 0)
    throw new CryptoError(reason, `${what} has a truncated character`)
  let text = ''
  for (let index = 0; index < content.length; index += width) {
    let codePoint = 0
    for (let octet = 0; octet < width; octet++)
      codePoint = codePoint * 256 + (content[index + octet] as number)
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
      throw new CryptoError(reason, `${what} has an invalid character`)
    text += width === 2 ? String.fromCharCode(codePoint) : String.fromCodePoint(codePoint)
  }
  return text
}
