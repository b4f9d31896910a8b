import type { TokenResponse } from './token-response.js'

/** The JSON type a named token response member must have. */
export type TokenResponseMemberType = 'string' | 'number' | 'boolean' | 'array of objects'

/** The members {@link TokenResponse} names, other than its index signature. */
type NamedMember = keyof {
  [K in keyof TokenResponse as string extends K ? never : number extends K ? never : K]: true
}

/**
 * Every member {@link TokenResponse} names, with its JSON type: the one table the validity check
 * (`isTokenResponseValid`) reads, typed so that a member added to `TokenResponse` and not here
 * (or the reverse) does not compile.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5 SMART 2.2 token response
 * @internal
 */
export const tokenResponseMemberTypes: Readonly<Record<NamedMember, TokenResponseMemberType>> =
  /* @__PURE__ */ Object.freeze<Record<NamedMember, TokenResponseMemberType>>({
    access_token: 'string',
    token_type: 'string',
    expires_in: 'number',
    scope: 'string',
    refresh_token: 'string',
    id_token: 'string',
    patient: 'string',
    encounter: 'string',
    fhirUser: 'string',
    fhirContext: 'array of objects',
    need_patient_banner: 'boolean',
    smart_style_url: 'string',
    intent: 'string',
    tenant: 'string',
  })

/**
 * True when `value` has the JSON type `type`: a finite number for `number`, an array whose
 * every entry is a JSON object (not an array, not `null`) for `array of objects`.
 *
 * @internal
 */
export function hasTokenResponseMemberType(value: unknown, type: TokenResponseMemberType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'array of objects':
      return (
        Array.isArray(value) &&
        value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))
      )
  }
}
