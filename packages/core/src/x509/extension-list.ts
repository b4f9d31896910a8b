import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeBoolean } from './der-certificate-values.js'
import { derTag, expectTag } from './der-values.js'
import { decodeDerOid } from './object-identifier.js'

/** One extension as listed: its value octets and whether it is marked critical. */
export interface ExtensionEntry {
  readonly critical: boolean
  readonly value: Uint8Array
}

/**
 * Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` with `Extension ::= SEQUENCE {
 * extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`, keyed by
 * OID in the order listed. Certificates, CRLs and CRL entries share it.
 *
 * @param owner - what carries the list, for messages (`"the certificate"`, `"a CRL entry"`).
 * @throws CryptoError `reason` for a malformed list or an extension that occurs twice
 *   (RFC 5280 §4.2, §5.2).
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1
 */
export function readExtensionList(
  list: DerElement | undefined,
  reason: CryptoErrorReason,
  owner: string,
): Map<string, ExtensionEntry> {
  const entries = new Map<string, ExtensionEntry>()
  for (const extension of readDerChildren(
    expectTag(list, derTag.sequence, `the extension list of ${owner}`, reason),
    reason,
  )) {
    const fields = readDerChildren(
      expectTag(extension, derTag.sequence, 'an extension', reason),
      reason,
    )
    const [oidElement, second] = fields
    const oid = decodeDerOid(
      expectTag(oidElement, derTag.objectIdentifier, 'an extension OID', reason).content,
      reason,
    )
    const hasCriticalFlag = second?.tag === derTag.boolean
    const critical =
      hasCriticalFlag &&
      decodeBoolean(second.content, `the critical flag of extension ${oid}`, reason)
    if (fields.length !== (hasCriticalFlag ? 3 : 2)) {
      throw new CryptoError(
        reason,
        `extension ${oid} does not have the fields extnID, critical, extnValue`,
      )
    }
    const value = expectTag(
      fields[fields.length - 1],
      derTag.octetString,
      `the value of extension ${oid}`,
      reason,
    )
    if (entries.has(oid)) throw new CryptoError(reason, `${owner} has extension ${oid} twice`)
    entries.set(oid, { critical, value: value.content })
  }
  return entries
}

/** OIDs of the critical entries outside `understood`, in the order listed. */
export function unrecognizedCritical(
  entries: ReadonlyMap<string, ExtensionEntry>,
  understood: ReadonlySet<string>,
): string[] {
  return [...entries]
    .filter(([oid, entry]) => entry.critical && !understood.has(oid))
    .map(([oid]) => oid)
}
