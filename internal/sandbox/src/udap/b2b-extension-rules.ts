import { isJsonObject } from '@fhir-auth/core'

/** The key of the B2B authorization extension object (IG STU2 §5.2.1.1). */
export const b2bExtensionKey = 'hl7-b2b'

/** The outcome of {@link readAuthorizationExtensions}. */
export type ExtensionsResult =
  | { readonly valid: true; readonly b2b: Readonly<Record<string, unknown>> | undefined }
  | { readonly valid: false; readonly message: string }

/** A URI with a scheme (`https://…`, `urn:oid:…`), no whitespace. */
const absoluteUriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/

/**
 * Reads the `extensions` claim of an authentication token: when present it is an object; every
 * key of `required` must be in it; an `hl7-b2b` object (required or not) must have `version`
 * `"1"`, `organization_id` an absolute URI, and `purpose_of_use` a non-empty array of non-empty
 * strings (and, when present, `consent_policy` / `consent_reference` arrays of URIs). Other
 * extension keys are ignored, as the IG allows.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 */
export function readAuthorizationExtensions(
  extensions: unknown,
  required: readonly string[],
): ExtensionsResult {
  const present = extensions === undefined ? {} : extensions
  if (!isJsonObject(present)) return invalid('extensions must be a JSON object')
  const missing = required.find((key) => !(key in present))
  if (missing !== undefined)
    return invalid(`the required authorization extension ${missing} is missing`)
  const b2b = present[b2bExtensionKey]
  if (b2b === undefined) return { valid: true, b2b: undefined }
  const problem = checkB2b(b2b)
  return problem === undefined && isJsonObject(b2b)
    ? { valid: true, b2b }
    : invalid(problem ?? 'hl7-b2b is invalid')
}

function checkB2b(b2b: unknown): string | undefined {
  if (!isJsonObject(b2b)) return 'hl7-b2b must be a JSON object'
  if (b2b.version !== '1') return 'hl7-b2b version must be "1"'
  if (typeof b2b.organization_id !== 'string' || !absoluteUriPattern.test(b2b.organization_id)) {
    return 'hl7-b2b organization_id must be a URI'
  }
  const purposes = b2b.purpose_of_use
  if (!Array.isArray(purposes) || purposes.length === 0) {
    return 'hl7-b2b purpose_of_use must be a non-empty array'
  }
  if (!purposes.every((purpose) => typeof purpose === 'string' && purpose !== '')) {
    return 'hl7-b2b purpose_of_use entries must be non-empty strings'
  }
  for (const key of ['consent_policy', 'consent_reference']) {
    const value = b2b[key]
    if (value === undefined) continue
    if (
      !Array.isArray(value) ||
      !value.every((entry) => typeof entry === 'string' && absoluteUriPattern.test(entry))
    ) {
      return `hl7-b2b ${key} must be an array of URIs`
    }
  }
  if (b2b.consent_reference !== undefined && b2b.consent_policy === undefined) {
    return 'hl7-b2b consent_reference requires consent_policy'
  }
  return undefined
}
function invalid(message: string): ExtensionsResult {
  return { valid: false, message }
}
