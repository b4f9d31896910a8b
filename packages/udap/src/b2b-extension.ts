import { ConfigurationError } from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal'
import { isPlainObject } from '@fhir-auth/core/internal/on-demand'
import { extensionFields } from './extension-fields.js'
import { frozenJsonCopy } from './json-value.js'
import { isAbsoluteUri } from './uri.js'

/**
 * The B2B authorization context a client asserts in a client_credentials token request (the
 * `hl7-b2b` extension). Codes and identifiers preferably as a URI or
 * `{code system URI}#{code}`, e.g. `urn:oid:2.16.840.1.113883.5.8#TREAT`.
 *
 * An access token obtained with one context may be used only in that context (same requestor,
 * same purpose): cache tokens by the whole context, not only by client.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 */
export interface B2bExtensionInput {
  /** `organization_id`: a URI identifying the requesting organisation (required). */
  readonly organizationId: string
  /** `purpose_of_use`: at least one code (required). */
  readonly purposeOfUse: readonly string[]
  /** `organization_name`. */
  readonly organizationName?: string | undefined
  /** `subject_name`: the human or non-human requestor; required by the IG when known. */
  readonly subjectName?: string | undefined
  /** `subject_id`: a human requestor's identifier, e.g. an NPI; only with `subjectName`. */
  readonly subjectId?: string | undefined
  /** `subject_role`: a human requestor's role code; only with `subjectName`. */
  readonly subjectRole?: string | undefined
  /** `consent_policy`: policy URIs. */
  readonly consentPolicy?: readonly string[] | undefined
  /** `consent_reference`: absolute URLs of FHIR Consent or DocumentReference resources; only with `consentPolicy`. */
  readonly consentReference?: readonly string[] | undefined
}

/** The extension key under `extensions` in an authentication token. */
export const b2bExtensionKey = 'hl7-b2b'

/**
 * Builds and checks an `hl7-b2b` extension object:
 * `{ version: "1", subject_name?, subject_id?, subject_role?, organization_name?,
 * organization_id, purpose_of_use, consent_policy?, consent_reference? }`, deeply frozen.
 *
 * Rules: `organizationId` an absolute URI; `purposeOfUse` a non-empty array of non-blank
 * strings; optional text members non-blank strings; `subjectId` and `subjectRole` only with
 * `subjectName`; `consentPolicy` a non-empty array of absolute URIs; `consentReference` a
 * non-empty array of absolute HTTP(S) URLs, and only with `consentPolicy`.
 *
 * @throws ConfigurationError `b2b` when the input is not an object, else `b2b.<field>` naming
 *   the member (`b2b.organizationId`, `b2b.purposeOfUse`, `b2b.subjectId`,
 *   `b2b.consentReference`…).
 * @example
 * ```ts
 * buildB2bExtension({
 *   organizationId: 'https://example.org/organizations/42',
 *   organizationName: 'Example Health',
 *   purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
 * })
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#b2b-authorization-extension-object
 */
export function buildB2bExtension(input: B2bExtensionInput): Readonly<Record<string, unknown>> {
  const {
    fail,
    optionalText,
    consentMembers,
    purposeOfUse: readPurposeOfUse,
  } = extensionFields('b2b')
  if (!isPlainObject(input)) {
    throw new ConfigurationError({
      invalidAttribute: 'b2b',
      message: `b2b must be an object with organizationId and purposeOfUse, not ${describeKind(input)}`,
    })
  }
  if (!isAbsoluteUri(input.organizationId)) {
    throw fail('organizationId', 'must be an absolute URI identifying the requesting organization')
  }
  const purposeOfUse = readPurposeOfUse(input.purposeOfUse)
  const organizationName = optionalText(input.organizationName, 'organizationName')
  const subjectName = optionalText(input.subjectName, 'subjectName')
  const subjectId = optionalText(input.subjectId, 'subjectId')
  const subjectRole = optionalText(input.subjectRole, 'subjectRole')
  // IG: subject_id and subject_role describe a human requestor named by subject_name.
  if (subjectName === undefined) {
    if (subjectId !== undefined) throw fail('subjectId', 'may be given only with subjectName')
    if (subjectRole !== undefined) throw fail('subjectRole', 'may be given only with subjectName')
  }
  const consent = consentMembers(input)
  const extension: Record<string, unknown> = { version: '1' }
  if (subjectName !== undefined) extension.subject_name = subjectName
  if (subjectId !== undefined) extension.subject_id = subjectId
  if (subjectRole !== undefined) extension.subject_role = subjectRole
  if (organizationName !== undefined) extension.organization_name = organizationName
  extension.organization_id = input.organizationId
  extension.purpose_of_use = purposeOfUse
  return frozenJsonCopy({ ...extension, ...consent })
}
