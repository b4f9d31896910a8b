/**
 * Test-only: rebuilds certificates and CRLs with edited fields, to reach parser branches that a
 * well-behaved issuer never produces. Signatures are left as they were (parsers do not verify).
 */
import {
  type DerElement,
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '../der.js'

const bytesOf = (element: DerElement) => element.bytes

/** The top-level fields of a certificate or CRL: TBS, signature algorithm, signature. */
export function outerFields(der: Uint8Array): Uint8Array[] {
  return readDerChildren(readDerDocument(der)).map(bytesOf)
}

/** Re-encodes a certificate or CRL after editing its top-level fields. */
export function withOuterFields(
  der: Uint8Array,
  edit: (fields: Uint8Array[]) => Uint8Array[],
): Uint8Array {
  return encodeDerSequence(...edit(outerFields(der)))
}

/**
 * Re-encodes a certificate or CRL after editing the fields of its TBS part (for a v3
 * certificate: [0] version, serial, signature, issuer, validity, subject, SPKI, [3] extensions).
 */
export function withTbsFields(
  der: Uint8Array,
  edit: (fields: Uint8Array[]) => Uint8Array[],
): Uint8Array {
  return withOuterFields(der, ([tbs, ...rest]) => [
    encodeDerSequence(...edit(readDerChildren(readDerDocument(tbs as Uint8Array)).map(bytesOf))),
    ...rest,
  ])
}

/** Re-encodes a v3 certificate after editing its list of encoded Extension elements. */
export function withExtensions(
  der: Uint8Array,
  edit: (extensions: Uint8Array[]) => Uint8Array[],
): Uint8Array {
  return withTbsFields(der, (fields) => {
    const wrapper = readDerDocument(fields[7] as Uint8Array)
    const [list] = readDerChildren(wrapper)
    const extensions = readDerChildren(list as DerElement).map(bytesOf)
    return [...fields.slice(0, 7), encodeDer(0xa3, encodeDerSequence(...edit(extensions)))]
  })
}
