import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeDirectoryString, toHex } from './der-certificate-values.js'
import { checkBitString, derTag, expectTag } from './der-values.js'
import { decodeDerOid } from './object-identifier.js'

/** Attribute types with an RFC 4514 short name; every other type is written as its dotted OID. */
const attributeShortNames: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
})

/**
 * The non-string values OpenSSL's loader keeps in a name (x500UniqueIdentifier is a BIT STRING);
 * it refuses every other non-string value (an INTEGER, a NULL, a time, an OCTET STRING, …), and
 * so does this reader.
 */
const binaryValueTags: ReadonlySet<number> = new Set([derTag.bitString, derTag.sequence])

/**
 * Renders an X.509 `Name` as an RFC 4514 string (`CN=Leaf,O=Example,C=US`: last RDN first,
 * multi-valued RDNs joined with `+`, special characters escaped, BIT STRING and SEQUENCE values as
 * `#hex`).
 *
 * The string is for messages and display only. Trust decisions compare the DER bytes of names,
 * because two different encodings can render to the same text.
 *
 * @throws CryptoError `reason` when the Name is not a SEQUENCE OF SET OF AttributeTypeAndValue,
 *   a value is neither a string (RFC 5280 §4.1.2.4) nor a BIT STRING or SEQUENCE, or a
 *   string is not valid text.
 * @see https://www.rfc-editor.org/rfc/rfc4514#section-2
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.2.4
 */
export function renderDistinguishedName(name: DerElement, reason: CryptoErrorReason): string {
  expectTag(name, derTag.sequence, 'a distinguished name', reason)
  const relativeNames = readDerChildren(name, reason).map((relativeName) => {
    expectTag(relativeName, derTag.set, 'a relative distinguished name', reason)
    return readDerChildren(relativeName, reason)
      .map((attribute) => renderAttribute(attribute, reason))
      .join('+')
  })
  return relativeNames.reverse().join(',')
}

function renderAttribute(attribute: DerElement, reason: CryptoErrorReason): string {
  expectTag(attribute, derTag.sequence, 'a name attribute', reason)
  const [type, value, extra] = readDerChildren(attribute, reason)
  const oid = decodeDerOid(
    expectTag(type, derTag.objectIdentifier, 'a name attribute type', reason).content,
    reason,
  )
  if (value === undefined || extra !== undefined) {
    throw new CryptoError(reason, `the name attribute ${oid} does not have exactly one value`)
  }
  const text = decodeDirectoryString(value, `the value of name attribute ${oid}`, reason)
  if (text === undefined && !binaryValueTags.has(value.tag)) {
    throw new CryptoError(
      reason,
      `the value of name attribute ${oid} has tag 0x${value.tag.toString(16)}, which is no string type`,
    )
  }
  if (value.tag === derTag.bitString)
    checkBitString(value.content, `the value of name attribute ${oid}`, reason)
  if (value.tag === derTag.sequence) readDerChildren(value, reason)
  return `${attributeShortNames[oid] ?? oid}=${text === undefined ? `#${toHex(value.bytes)}` : escapeValue(text)}`
}

/** RFC 4514 §2.4 escaping: specials anywhere, `#` or space first, space last, control characters. */
function escapeValue(text: string): string {
  let escaped = ''
  for (let index = 0; index < text.length; index++) {
    const character = text.charAt(index)
    const code = character.charCodeAt(0)
    if (',+"\\<>;='.includes(character)) escaped += `\\${character}`
    else if (code < 0x20 || code === 0x7f) escaped += `\\${code.toString(16).padStart(2, '0')}`
    else if (
      (index === 0 && (character === '#' || character === ' ')) ||
      (index === text.length - 1 && character === ' ')
    ) {
      escaped += `\\${character}`
    } else escaped += character
  }
  return escaped
}
