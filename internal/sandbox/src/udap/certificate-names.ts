import * as pkijs from 'pkijs'

const subjectAltNameOid = '2.5.29.17'
/** GeneralName choice [6] uniformResourceIdentifier (RFC 5280 §4.2.1.6). */
const uniformResourceIdentifierTag = 6

/**
 * The `uniformResourceIdentifier` entries of a certificate's subjectAltName, byte for byte as
 * encoded: UDAP compares `iss` with them as exact strings (IG STU2 §7.1.5), so nothing is
 * normalised here.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#uri-comparison
 */
export function subjectAlternativeNameUris(certificate: pkijs.Certificate): string[] {
  const extension = certificate.extensions?.find((entry) => entry.extnID === subjectAltNameOid)
  const names = extension?.parsedValue
  if (!(names instanceof pkijs.AltName)) return []
  return names.altNames.flatMap((name) =>
    name.type === uniformResourceIdentifierTag && typeof name.value === 'string'
      ? [name.value]
      : [],
  )
}
