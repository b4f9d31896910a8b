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
  return { fail, optionalText, textList }
}

/** An absolute `http:`/`https:` URL (a FHIR Consent or DocumentReference reference). */
export function isHttpUrl(value: unknown): value is string {
  return isAbsoluteUri(value) && /^https?:/i.test(value)
}
