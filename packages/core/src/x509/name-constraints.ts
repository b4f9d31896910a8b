import { CryptoError } from '../errors/crypto-error.js'
import { readUriHost, uriHostRule } from '../http/uri-host.js'
import { type DerElement, readDerChildren, readDerDocument } from './der.js'
import { decodeDirectoryString, toHex } from './der-certificate-values.js'
import { derTag, expectTag, readDerDocumentWithTag, readSmallInteger } from './der-values.js'
import { renderDistinguishedName } from './distinguished-name.js'
import {
  type GeneralName,
  type GeneralNameForm,
  generalNameFormNames,
  readGeneralName,
} from './general-names.js'
import {
  directoryNameWithin,
  dnsNameWithin,
  emailAddressWithin,
  ipAddressWithin,
  uriDomainName,
  uriWithin,
} from './name-matching.js'
import { decodeDerOid } from './object-identifier.js'

/** One `GeneralSubtree`: a base name, and whether it carries the distance bounds RFC 5280 forbids. */
export interface GeneralSubtree {
  readonly base: GeneralName
  /**
   * `minimum` other than 0 or a `maximum`: RFC 5280 §4.2.1.10 says both MUST NOT be used, and
   * no meaning is defined for them, so a name of this form can never be checked against it.
   */
  readonly hasDistanceBounds: boolean
}

/** A CA's `nameConstraints`: names below it must be in a permitted and in no excluded subtree. */
export interface NameConstraints {
  readonly permitted: readonly GeneralSubtree[]
  readonly excluded: readonly GeneralSubtree[]
}

const reason = 'invalid-certificate'
const permittedTag = 0xa0
const excludedTag = 0xa1
const minimumTag = 0x80
const maximumTag = 0x81
/** `emailAddress` attribute type of PKCS #9, which RFC 5280 subjects to rfc822Name constraints. */
const emailAddressOid = '1.2.840.113549.1.9.1'

/**
 * Reads the value of a `nameConstraints` extension: `NameConstraints ::= SEQUENCE {
 * permittedSubtrees [0] GeneralSubtrees OPTIONAL, excludedSubtrees [1] GeneralSubtrees OPTIONAL }`
 * with `GeneralSubtree ::= SEQUENCE { base GeneralName, minimum [0] DEFAULT 0, maximum [1]
 * OPTIONAL }`. IP bases must be address and mask (8 or 32 octets).
 *
 * @throws CryptoError `invalid-certificate` for malformed DER, empty subtree lists, fields out of
 *   order or repeated, or a base that is not a valid GeneralName.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.10
 */
export function readNameConstraints(value: Uint8Array): NameConstraints {
  const constraints = readDerDocumentWithTag(value, derTag.sequence, 'nameConstraints', reason)
  const fields = readDerChildren(constraints, reason)
  let index = 0
  const subtrees = (tag: number, what: string): readonly GeneralSubtree[] => {
    const field = fields[index]
    if (field?.tag !== tag) return []
    index++
    const list = readDerChildren(field, reason).map((subtree) => readSubtree(subtree, what))
    if (list.length === 0) throw new CryptoError(reason, `nameConstraints has empty ${what}`)
    return Object.freeze(list)
  }
  const permitted = subtrees(permittedTag, 'permittedSubtrees')
  const excluded = subtrees(excludedTag, 'excludedSubtrees')
  if (index !== fields.length) {
    throw new CryptoError(reason, 'nameConstraints has fields other than permitted and excluded')
  }
  return Object.freeze({ permitted, excluded })
}

function readSubtree(element: DerElement, what: string): GeneralSubtree {
  const [baseElement, ...bounds] = readDerChildren(
    expectTag(element, derTag.sequence, `a subtree of ${what}`, reason),
    reason,
  )
  if (baseElement === undefined) throw new CryptoError(reason, `a subtree of ${what} has no base`)
  const base = readGeneralName(baseElement, `a base of ${what}`)
  if (base.form === 'ip' && base.octets.length !== 8 && base.octets.length !== 32) {
    throw new CryptoError(
      reason,
      `an iPAddress base of ${what} has ${base.octets.length} octets (address and mask: 8 or 32)`,
    )
  }
  let hasDistanceBounds = false
  let expected = minimumTag
  for (const bound of bounds) {
    if (bound.tag !== minimumTag && bound.tag !== maximumTag) {
      throw new CryptoError(reason, `a subtree of ${what} has an unexpected field`)
    }
    if (bound.tag < expected) throw new CryptoError(reason, `a subtree of ${what} repeats a bound`)
    expected = bound.tag + 1
    // BaseDistance is an INTEGER, implicitly tagged [0] or [1].
    const distance = readSmallInteger(
      { ...bound, tag: derTag.integer },
      `a subtree bound of ${what}`,
      reason,
    )
    if (bound.tag === maximumTag || distance !== 0) hasDistanceBounds = true
  }
  return Object.freeze({ base, hasDistanceBounds })
}

/**
 * The names of a certificate that name constraints apply to (RFC 5280 §6.1.3 (b), (c)): its
 * subject as a directoryName when it is not empty, every `emailAddress` attribute of the
 * subject as an rfc822Name, and every subjectAltName entry.
 *
 * @param subjectDer - the DER subject `Name`, already validated by the certificate parser.
 */
export function constrainedNamesOf(
  subjectDer: Uint8Array,
  subjectAltNames: readonly GeneralName[],
): readonly GeneralName[] {
  const relativeNames = readDerChildren(readDerDocument(subjectDer))
  if (relativeNames.length === 0) return subjectAltNames
  const names: GeneralName[] = [{ form: 'directoryName', name: subjectDer }]
  for (const relativeName of relativeNames) {
    for (const attribute of readDerChildren(relativeName)) {
      const [type, value] = readDerChildren(attribute)
      if (type === undefined || value === undefined) continue
      if (decodeDerOid(type.content) !== emailAddressOid) continue
      // A value that is no string cannot be an address: it is checked as one without "@",
      // which no rfc822Name constraint can place (fail closed).
      names.push({
        form: 'email',
        value: decodeDirectoryString(value, 'an emailAddress attribute', reason) ?? '',
      })
    }
  }
  return [...names, ...subjectAltNames]
}

/**
 * The first name that violates `constraints`, described for a message, or `undefined` when all
 * comply. A name is checked against the subtrees of its own form only: it must lie within one of
 * the permitted subtrees when there are any of that form, and within none of the excluded ones.
 * Names that cannot be placed (a URI without a DNS host, an address without `@`, forms other than
 * the five supported, subtrees with distance bounds) violate any constraint of their form:
 * RFC 5280 requires rejecting what cannot be processed.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.1.3
 */
export function nameConstraintViolation(
  constraints: NameConstraints,
  names: readonly GeneralName[],
): string | undefined {
  for (const name of names) {
    const permitted = constraints.permitted.filter((subtree) => subtree.base.form === name.form)
    const excluded = constraints.excluded.filter((subtree) => subtree.base.form === name.form)
    if (permitted.length === 0 && excluded.length === 0) continue
    const described = describeName(name)
    if ([...permitted, ...excluded].some((subtree) => subtree.hasDistanceBounds)) {
      return `${described} cannot be checked: a ${formName(name.form)} subtree has minimum or maximum, which RFC 5280 forbids`
    }
    const matches = (subtree: GeneralSubtree) => within(name, subtree.base)
    const placed = [...permitted, ...excluded].map(matches)
    if (placed.includes(undefined)) {
      return `${described} cannot be checked against ${formName(name.form)} constraints${unplaceableBecause(name)}`
    }
    const inExcluded = excluded.find((subtree) => matches(subtree) === true)
    if (inExcluded !== undefined) {
      return `${described} is within the excluded subtree ${describeName(inExcluded.base)}`
    }
    if (permitted.length > 0 && !permitted.some((subtree) => matches(subtree) === true)) {
      return `${described} is not within the permitted subtrees (${permitted.map((subtree) => describeName(subtree.base)).join(', ')})`
    }
  }
  return undefined
}

/** Why a name cannot be placed under the constraints of its form, for messages. */
function unplaceableBecause(name: GeneralName): string {
  switch (name.form) {
    case 'uri': {
      if (readUriHost(name.value) === undefined) {
        const parsed = URL.canParse(name.value) ? new URL(name.value).hostname : undefined
        const destination = parsed
          ? `, and the URL parser reads the host ${JSON.stringify(parsed)}`
          : ''
        return `: it ${uriHostRule} (no user info, backslash, percent-encoding or control character in the authority, no trailing dot)${destination}`
      }
      return uriDomainName(name.value) !== undefined
        ? ': a uniformResourceIdentifier base is not a DNS host name or a domain with a leading period'
        : ': it has no DNS host name (no authority, or an IP address), and RFC 5280 §4.2.1.10 then requires rejection'
    }
    case 'dns':
      return ': the name or a base has an empty label (a trailing dot or "..")'
    case 'email':
      return ': it has no "@"'
    case 'other':
      return ': fhir-auth checks URI, DNS, email, IP and directory names only'
    default:
      return ''
  }
}

/** Whether `name` lies within `base` (same form); `undefined` when it cannot be placed. */
function within(name: GeneralName, base: GeneralName): boolean | undefined {
  if (name.form === 'dns' && base.form === 'dns') return dnsNameWithin(name.value, base.value)
  if (name.form === 'email' && base.form === 'email')
    return emailAddressWithin(name.value, base.value)
  if (name.form === 'uri' && base.form === 'uri') return uriWithin(name.value, base.value)
  if (name.form === 'ip' && base.form === 'ip') return ipAddressWithin(name.octets, base.octets)
  if (name.form === 'directoryName' && base.form === 'directoryName')
    return directoryNameWithin(name.name, base.name)
  return undefined
}

function formName(form: GeneralNameForm): string {
  return generalNameFormNames[form]
}

/** A name for messages: `dNSName "www.example.com"`, `directoryName "CN=…"`, … */
function describeName(name: GeneralName): string {
  switch (name.form) {
    case 'email':
    case 'dns':
    case 'uri':
      return `${formName(name.form)} ${JSON.stringify(name.value)}`
    case 'ip':
      return `iPAddress ${toHex(name.octets)}`
    case 'directoryName':
      return `directoryName "${renderDistinguishedName(readDerDocument(name.name), reason)}"`
    case 'other':
      return `a name with tag 0x${name.tag.toString(16)} (${formName('other')})`
  }
}
