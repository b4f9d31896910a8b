import { ConfigurationError } from '@fhir-auth/core/essentials'
import { describeKind, isNonBlankString } from '@fhir-auth/core/internal'
import { isAbsoluteUri } from './uri.js'

/**
 * The field checks the authorization extension builders share (`hl7-b2b`, `hl7-b2b-user`): each
 * refusal is a `ConfigurationError` on `<owner>.<field>` (`b2b.purposeOfUse`,
 * `b2bUser.consentReference`…).
 */
export function extensionFields(owner: string) {
  const fail = (field: string, problem: string): ConfigurationError =>
    new ConfigurationError({
      invalidAttribute: `${owner}.${field}`,
      message: `${owner}.${field} ${problem}`,
    })
  const optionalText = (value: unknown, field: string): string | undefined => {
    if (value === undefined) return undefined
    if (isNonBlankString(value)) return value
    throw fail(field, `must be a non-blank string, not ${describeKind(value)}`)
  }
  const textList = (
    value: unknown,
    field: string,
    isValid: (entry: unknown) => entry is string,
    description: string,
  ): string[] | undefined => {
    if (value === undefined) return undefined
    if (!Array.isArray(value) || value.length === 0) {
      throw fail(field, `must be a non-empty array of ${description}, not ${describeKind(value)}`)
    }
    const invalid = value.findIndex((entry) => !isValid(entry))
    if (invalid >= 0) {
      throw new ConfigurationError({
        invalidAttribute: `${owner}.${field}`,
        message: `${owner}.${field}[${invalid}] is not valid: expected ${description}`,
      })
    }
    return [...value]
  }
  /**
   * `consent_policy` (absolute URIs) and `consent_reference` (absolute HTTP(S) URLs), the
   * members both extensions carry the same way; the IG: `consent_reference` SHALL be omitted
   * when `consent_policy` is absent.
   */
  const consentMembers = (input: {
    readonly consentPolicy?: unknown
    readonly consentReference?: unknown
  }): { consent_policy?: string[]; consent_reference?: string[] } => {
    const policy = textList(input.consentPolicy, 'consentPolicy', isAbsoluteUri, 'policy URIs')
    const reference = textList(
      input.consentReference,
      'consentReference',
      isHttpUrl,
      'absolute HTTP(S) URLs of Consent or DocumentReference resources',
    )
    if (reference !== undefined && policy === undefined) {
      throw fail('consentReference', 'may be given only with consentPolicy')
    }
    return {
      ...(policy === undefined ? {} : { consent_policy: policy }),
      ...(reference === undefined ? {} : { consent_reference: reference }),
    }
  }
  /** `purpose_of_use`: required, at least one non-blank code, in both extensions. */
  const purposeOfUse = (value: unknown): string[] => {
    const codes = textList(
      value,
      'purposeOfUse',
      isNonBlankString,
      'non-blank purpose of use codes',
    )
    if (codes === undefined)
      throw fail('purposeOfUse', 'is required: at least one purpose of use code')
    return codes
  }
  return { fail, optionalText, textList, consentMembers, purposeOfUse }
}

/** An absolute `http:`/`https:` URL (a FHIR Consent or DocumentReference reference). */
export function isHttpUrl(value: unknown): value is string {
  return isAbsoluteUri(value) && /^https?:/i.test(value)
}
