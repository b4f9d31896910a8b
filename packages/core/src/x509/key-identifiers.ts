import type { CryptoErrorReason } from '../errors/crypto-error.js'
import { readDerChildren } from './der.js'
import { derTag, readDerDocumentWithTag } from './der-values.js'

/** `AuthorityKeyIdentifier` field `[0] keyIdentifier OCTET STRING`, implicitly tagged. */
const keyIdentifierTag = 0x80

/**
 * The `keyIdentifier` of an authorityKeyIdentifier extension value (`SEQUENCE { [0]
 * keyIdentifier OPTIONAL, [1] authorityCertIssuer OPTIONAL, [2] authorityCertSerialNumber
 * OPTIONAL }`), or `undefined` without the extension or without that field. Certificates and
 * CRLs share it.
 *
 * @throws CryptoError `reason` when the value is not one SEQUENCE.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.1
 */
export function readKeyIdentifierOfAuthority(
  value: Uint8Array | undefined,
  reason: CryptoErrorReason,
): Uint8Array | undefined {
  if (value === undefined) return undefined
  const identifier = readDerDocumentWithTag(
    value,
    derTag.sequence,
    'authorityKeyIdentifier',
    reason,
  )
  return readDerChildren(identifier, reason).find((field) => field.tag === keyIdentifierTag)
    ?.content
}
