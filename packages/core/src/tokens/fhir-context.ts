/**
 * One entry of SMART's `fhirContext` launch context: a resource the app should use, named by
 * `reference`, `canonical` or `identifier`, with an optional `type` and `role`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/scopes-and-launch-context.html#fhircontext SMART 2.2 fhirContext
 */
export interface FhirContextItem {
  readonly reference?: string
  readonly canonical?: string
  readonly identifier?: Readonly<Record<string, unknown>>
  readonly type?: string
  readonly role?: string
  readonly [member: string]: unknown
}
