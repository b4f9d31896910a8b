import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeDirectoryString, latin1 } from './der-certificate-values.js'
import { derTag, expectTag, readDerDocumentWithTag } from './der-values.js'
import { renderDistinguishedName } from './distinguished-name.js'
import { decodeDerOid } from './object-identifier.js'

/**
 * One `GeneralName` (RFC 5280 §4.2.1.6), in the forms the path policy compares:
 *
 * - `email` (`rfc822Name`), `dns` (`dNSName`) and `uri` (`uniformResourceIdentifier`): the
 *   IA5String exactly as encoded;
 * - `ip` (`iPAddress`): the octets (4 or 16 in a subjectAltName; address and mask, 8 or 32, in a
 *   name constraint);
 * - `directoryName`: the DER of the `Name`;
 * - `other`: `otherName`, `x400Address`, `ediPartyName` and `registeredID`, kept by tag only.
 */
export type GeneralName =
  | { readonly form: 'email' | 'dns' | 'uri'; readonly value: string }
  | { readonly form: 'ip'; readonly octets: Uint8Array }
  | { readonly form: 'directoryName'; readonly name: Uint8Array }
  | { readonly form: 'other'; readonly tag: number }

/** The name form of a {@link GeneralName}, as the policy groups constraints. */
export type GeneralNameForm = GeneralName['form']

/** Context-specific tags of the `GeneralName` choices (implicit, except `[4] Name`). */
const generalNameTags = /* @__PURE__ */ Object.freeze({
  otherName: 0xa0,
  rfc822Name: 0x81,
  dNSName: 0x82,
  x400Address: 0xa3,
  directoryName: 0xa4,
  ediPartyName: 0xa5,
  uniformResourceIdentifier: 0x86,
  iPAddress: 0x87,
  registeredID: 0x88,
})

/** `[0]` constructed: the explicit value of an otherName, the nameAssigner of an ediPartyName. */
const explicitValueTag = 0xa0

/** `DirectoryString`: TeletexString, PrintableString, UniversalString, UTF8String, BMPString. */
const directoryStringTags: ReadonlySet<number> = new Set([
  derTag.teletexString,
  derTag.printableString,
  derTag.universalString,
  derTag.utf8String,
  derTag.bmpString,
])

/** RFC 5280 names of the forms, for messages. */
export const generalNameFormNames: Readonly<Record<GeneralNameForm, string>> =
  /* @__PURE__ */ Object.freeze({
    email: 'rfc822Name',
    dns: 'dNSName',
    uri: 'uniformResourceIdentifier',
    ip: 'iPAddress',
    directoryName: 'directoryName',
    other: 'otherName, x400Address, ediPartyName or registeredID',
  })

/**
 * Reads one `GeneralName` element.
 *
 * IA5String forms must be printable ASCII (no control characters, nothing above 0x7e), so a name
 * that renders like another cannot slip past an exact comparison.
 *
 * @param what - what the name is, for messages (`"a subjectAltName entry"`).
 * The forms the policy does not compare are still read as far as OpenSSL's loader reads them, so
 * a certificate it refuses is refused here too: an `otherName` is a type OID and one `[0]`
 * value, an `ediPartyName` an optional `[0]` and a required `[1]` DirectoryString, a
 * `registeredID` an OID, a `directoryName` a Name with string values. `x400Address` is kept by
 * tag only.
 *
 * @throws CryptoError `reason` (default `invalid-certificate`) for an unknown choice tag, a
 *   string with other characters, a directoryName that is not one valid Name, or an otherName,
 *   ediPartyName or registeredID that does not parse.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.6
 */
export function readGeneralName(
  element: DerElement,
  what: string,
  reason: CryptoErrorReason = 'invalid-certificate',
): GeneralName {
  switch (element.tag) {
    case generalNameTags.rfc822Name:
      return { form: 'email', value: printableAscii(element.content, what, reason) }
    case generalNameTags.dNSName:
      return { form: 'dns', value: printableAscii(element.content, what, reason) }
    case generalNameTags.uniformResourceIdentifier:
      return { form: 'uri', value: printableAscii(element.content, what, reason) }
    case generalNameTags.iPAddress:
      return { form: 'ip', octets: element.content }
    case generalNameTags.directoryName: {
      const [name, extra] = readDerChildren(element, reason)
      if (extra !== undefined) throw new CryptoError(reason, `${what} holds two names`)
      const nameElement = expectTag(name, derTag.sequence, `the directoryName of ${what}`, reason)
      renderDistinguishedName(nameElement, reason)
      return { form: 'directoryName', name: nameElement.bytes }
    }
    case generalNameTags.otherName:
      readOtherName(element, what, reason)
      return { form: 'other', tag: element.tag }
    case generalNameTags.ediPartyName:
      readEdiPartyName(element, what, reason)
      return { form: 'other', tag: element.tag }
    case generalNameTags.registeredID:
      decodeDerOid(element.content, reason)
      return { form: 'other', tag: element.tag }
    case generalNameTags.x400Address:
      return { form: 'other', tag: element.tag }
    default:
      throw new CryptoError(
        reason,
        `${what} has tag 0x${element.tag.toString(16)}, which is no GeneralName`,
      )
  }
}

/**
 * Reads the value of a `subjectAltName` extension: `GeneralNames ::= SEQUENCE SIZE (1..MAX) OF
 * GeneralName`. IP addresses must be 4 or 16 octets.
 *
 * @throws CryptoError `invalid-certificate` for an empty or malformed list (see
 *   {@link readGeneralName}).
 */
export function readSubjectAltNames(value: Uint8Array): readonly GeneralName[] {
  const reason = 'invalid-certificate'
  const list = readDerDocumentWithTag(value, derTag.sequence, 'subjectAltName', reason)
  const names = readDerChildren(list, reason).map((element) =>
    readGeneralName(element, 'a subjectAltName entry'),
  )
  if (names.length === 0) throw new CryptoError(reason, 'subjectAltName is an empty list')
  for (const name of names) {
    if (name.form === 'ip' && name.octets.length !== 4 && name.octets.length !== 16) {
      throw new CryptoError(
        reason,
        `a subjectAltName iPAddress has ${name.octets.length} octets (4 or 16 expected)`,
      )
    }
  }
  return Object.freeze(names)
}

/** `OtherName ::= SEQUENCE { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY }`, implicitly tagged. */
function readOtherName(element: DerElement, what: string, reason: CryptoErrorReason): void {
  const [typeId, value, extra] = readDerChildren(element, reason)
  decodeDerOid(
    expectTag(typeId, derTag.objectIdentifier, `the otherName type of ${what}`, reason).content,
    reason,
  )
  const [inner, innerExtra] = readDerChildren(
    expectTag(value, explicitValueTag, `the otherName value of ${what}`, reason),
    reason,
  )
  if (inner === undefined || innerExtra !== undefined || extra !== undefined)
    throw new CryptoError(reason, `the otherName of ${what} is not a type and one value`)
}

/**
 * `EDIPartyName ::= SEQUENCE { nameAssigner [0] DirectoryString OPTIONAL, partyName [1]
 * DirectoryString }`, implicitly tagged; the DirectoryString CHOICE inside each is explicit.
 */
function readEdiPartyName(element: DerElement, what: string, reason: CryptoErrorReason): void {
  const fields = readDerChildren(element, reason)
  const expected = fields[0]?.tag === explicitValueTag ? [explicitValueTag, 0xa1] : [0xa1]
  if (
    fields.length !== expected.length ||
    fields.some((field, index) => field.tag !== expected[index])
  )
    throw new CryptoError(
      reason,
      `the ediPartyName of ${what} is not [0] nameAssigner, [1] partyName`,
    )
  for (const field of fields) {
    const [text, extra] = readDerChildren(field, reason)
    if (text === undefined || extra !== undefined || !directoryStringTags.has(text.tag))
      throw new CryptoError(
        reason,
        `the ediPartyName of ${what} holds a value that is no DirectoryString`,
      )
    decodeDirectoryString(text, `the ediPartyName of ${what}`, reason)
  }
}

/** An IA5String's text; refuses control characters and octets outside ASCII. */
function printableAscii(content: Uint8Array, what: string, reason: CryptoErrorReason): string {
  if (content.some((octet) => octet > 0x7e || octet < 0x20)) {
    throw new CryptoError(reason, `${what} contains non-ASCII or control characters`)
  }
  return latin1(content)
}
