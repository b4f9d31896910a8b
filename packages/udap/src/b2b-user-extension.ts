import { ConfigurationError } from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal'
import { isPlainObject } from '@fhir-auth/core/internal/on-demand'
import { extensionFields } from './extension-fields.js'
import { frozenJsonCopy, jsonValueProblem } from './json-value.js'

/**
 * The user a client asserts in a client_credentials token request when it acts for a person
 * (the `hl7-b2b-user` extension): the user as a FHIR `Person` resource and the purpose of use.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 */
export interface B2bUserExtensionInput {
  /** `user_person`: the user as a FHIR `Person` resource (a JSON object, `resourceType: 'Person'`). */
  readonly userPerson: Readonly<Record<string, unknown>>
  /** `purpose_of_use`: at least one code, e.g. `urn:oid:2.16.840.1.113883.5.8#TREAT`. */
  readonly purposeOfUse: readonly string[]
  /** `consent_policy`: policy URIs. */
  readonly consentPolicy?: readonly string[] | undefined
  /** `consent_reference`: absolute URLs of FHIR Consent or DocumentReference resources; only with `consentPolicy`. */
  readonly consentReference?: readonly string[] | undefined
}

/** The extension key of {@link buildB2bUserExtension}'s object. */
export const b2bUserExtensionKey = 'hl7-b2b-user'

/**
 * Builds and checks an `hl7-b2b-user` extension object: `{ version: "1", user_person,
 * purpose_of_use, consent_policy?, consent_reference? }`, deeply frozen.
 *
 * Rules: `userPerson` a JSON object whose `resourceType` is `Person`; `purposeOfUse` a non-empty
 * array of non-blank strings; `consentPolicy` a non-empty array of absolute URIs;
 * `consentReference` a non-empty array of absolute HTTP(S) URLs, and only with `consentPolicy`.
 *
 * @throws ConfigurationError `b2bUser` when the input is not an object, else
 *   `b2bUser.<field>` naming the member.
 * @example
 * ```ts
 * buildB2bUserExtension({
 *   userPerson: { resourceType: 'Person', name: [{ text: 'Dr. Ada Example' }] },
 *   purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 */
export function buildB2bUserExtension(
  input: B2bUserExtensionInput,
): Readonly<Record<string, unknown>> {
  const { fail, consentMembers, purposeOfUse: readPurposeOfUse } = extensionFields('b2bUser')
  if (!isPlainObject(input)) {
    throw new ConfigurationError({
      invalidAttribute: 'b2bUser',
      message: `b2bUser must be an object with userPerson and purposeOfUse, not ${describeKind(input)}`,
    })
  }
  const person: unknown = input.userPerson
  if (!isPlainObject(person) || person.resourceType !== 'Person') {
    throw fail(
      'userPerson',
      'must be a FHIR Person resource (a JSON object with resourceType "Person")',
    )
  }
  const problem = jsonValueProblem(person)
  if (problem !== undefined) throw fail('userPerson', `must hold JSON values only; it ${problem}`)
  const purposeOfUse = readPurposeOfUse(input.purposeOfUse)
  const consent = consentMembers(input)
  const extension: Record<string, unknown> = {
    version: '1',
    user_person: person,
    purpose_of_use: purposeOfUse,
  }
  return frozenJsonCopy({ ...extension, ...consent })
}
