import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { derTag, expectTag } from './der-values.js'
import { decodeDerOid } from './object-identifier.js'

/** An `AlgorithmIdentifier`: the OID and its parameters element, if any. */
export interface AlgorithmIdentifier {
  readonly oid: string
  readonly parameters: DerElement | undefined
}

/**
 * Reads an `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`.
 *
 * @throws CryptoError `reason` when the structure is not that, or its parameters are a NULL with
 *   content octets.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.1.1.2
 * @see https://www.itu.int/rec/T-REC-X.690 (X.690 §8.8.2)
 */
export function readAlgorithmIdentifier(
  element: DerElement | undefined,
  what: string,
  reason: CryptoErrorReason,
): AlgorithmIdentifier {
  const [algorithm, parameters, extra] = readDerChildren(
    expectTag(element, derTag.sequence, what, reason),
    reason,
  )
  if (extra !== undefined) throw new CryptoError(reason, `${what} has more than two fields`)
  // X.690 §8.8.2: a NULL has no content octets (OpenSSL's loader refuses one that has).
  if (parameters?.tag === derTag.null && parameters.content.length !== 0) {
    throw new CryptoError(reason, `${what} has a NULL with content`)
  }
  return {
    oid: decodeDerOid(
      expectTag(algorithm, derTag.objectIdentifier, `${what} OID`, reason).content,
      reason,
    ),
    parameters,
  }
}
