import { ConfigurationError, checkUrl, describeValue } from '@fhir-auth/core/essentials'
import { describeKind, requireNonBlankString } from '@fhir-auth/core/internal'
import { isPlainObject } from '@fhir-auth/core/internal/on-demand'
import { frozenJsonCopy, jsonValueProblem, setMember } from './json-value.js'
import { isAbsoluteUri } from './uri.js'

/** The grant types a UDAP software statement may name. */
export type UdapGrantType = 'authorization_code' | 'client_credentials' | 'refresh_token'

/**
 * The registration claims of a UDAP software statement after
 * {@link normalizeRegistrationMetadata}: checked against the STU2 rules, with the generated
 * members added, deeply frozen. Other RFC 7591 members the caller gave are kept as given.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 */
export interface RegistrationClaims {
  readonly client_name: string
  readonly contacts: readonly string[]
  readonly scope: string
  /** Canonical order; `[]` for a cancellation. */
  readonly grant_types: readonly UdapGrantType[]
  /** `["code"]` exactly when `grant_types` has `authorization_code`. */
  readonly response_types?: readonly ['code']
  readonly redirect_uris?: readonly string[]
  readonly logo_uri?: string
  readonly token_endpoint_auth_method: 'private_key_jwt'
  readonly [member: string]: unknown
}

/** Options of {@link normalizeRegistrationMetadata}. */
export interface NormalizeRegistrationMetadataOptions {
  /** `register` (also modification) or `cancel` (the statement then carries `grant_types: []`). */
  readonly operation: 'register' | 'cancel'
  /** Accept `http://` redirect URIs on loopback hosts (development, native apps). */
  readonly allowInsecureLocalhost?: boolean | undefined
}

/**
 * Claims the library sets itself. A caller-supplied value would either be overwritten
 * silently or contradict what the library sends, so it is refused instead.
 */
const reservedClaims = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'jti',
  'software_statement',
  'certifications',
  'udap',
  'token_endpoint_auth_method',
] as const

const grantTypeOrder: readonly UdapGrantType[] = [
  'authorization_code',
  'client_credentials',
  'refresh_token',
]

const handledMembers = new Set([
  'response_types',
  'client_name',
  'contacts',
  'scope',
  'grant_types',
  'redirect_uris',
  'logo_uri',
])

// RFC 6068 mailto with one addr-spec: a local part, "@", and a DNS domain; an optional query.
const mailtoPattern =
  /^mailto:[^\s@?#,]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?:\?[^\s#]*)?$/i

// RFC 6749 §3.3: scope = scope-token *( SP scope-token ), single spaces only.
const scopePattern = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/

const logoExtensionPattern = /\.(?:png|jpe?g|gif)$/i

/**
 * Checks a caller's registration metadata against the UDAP STU2 software statement rules and
 * returns the claims to sign. No I/O; everything is checked before any request.
 *
 * - `client_name`: required non-blank string.
 * - `contacts`: required non-empty array of absolute URIs, at least one a valid `mailto:`.
 * - `scope`: required, space-separated scope tokens (RFC 6749 §3.3).
 * - `grant_types` (register): required array of `authorization_code`, `client_credentials`,
 *   `refresh_token` without duplicates, with exactly one of `authorization_code` /
 *   `client_credentials`, and `refresh_token` only with `authorization_code`; returned in that
 *   canonical order. Cancel: must not be given; it becomes `[]`.
 * - `redirect_uris`: required with `authorization_code` (non-empty array of HTTPS URLs — loopback
 *   HTTP only with `allowInsecureLocalhost` — without fragment), forbidden otherwise; dropped
 *   for a cancellation.
 * - `logo_uri`: required with `authorization_code` (an HTTPS URL, whatever the policy, whose path
 *   ends in `.png`, `.jpg`, `.jpeg` or `.gif`), forbidden otherwise; dropped for a cancellation.
 * - `response_types`: set by the library to `["code"]` with `authorization_code`; a caller may
 *   give that value, any other is refused (and any value without `authorization_code`).
 * - generated: `token_endpoint_auth_method: "private_key_jwt"` always.
 * - reserved (refused when given): `iss sub aud exp iat jti software_statement certifications
 *   udap token_endpoint_auth_method`.
 * - other RFC 7591 members are kept when they are JSON values (strings, finite numbers,
 *   booleans, null, arrays, plain objects); `undefined` members are treated as absent.
 *
 * HTTP loopback redirect URIs are accepted only with `allowInsecureLocalhost` (RFC 8252 §7.3).
 *
 * @throws ConfigurationError whose `invalidAttribute` names the member (`contacts`,
 *   `grant_types`, `logo_uri`, `iss`…), or `metadata` when it is not a plain object.
 * @example
 * ```ts
 * const claims = normalizeRegistrationMetadata(
 *   {
 *     client_name: 'Example B2B client',
 *     contacts: ['mailto:ops@example.org'],
 *     grant_types: ['client_credentials'],
 *     scope: 'system/Patient.rs',
 *   },
 *   { operation: 'register' },
 * )
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
 */
export function normalizeRegistrationMetadata(
  metadata: unknown,
  options: NormalizeRegistrationMetadataOptions,
): RegistrationClaims {
  const operation = options?.operation
  if (operation !== 'register' && operation !== 'cancel') {
    throw new ConfigurationError({
      invalidAttribute: 'operation',
      validValues: ['register', 'cancel'],
      message: 'operation must be "register" or "cancel"',
    })
  }
  const allowInsecureLocalhost = options.allowInsecureLocalhost === true
  if (!isPlainObject(metadata)) {
    throw new ConfigurationError({
      invalidAttribute: 'metadata',
      message: `registration metadata must be a plain object, not ${describeKind(metadata)}`,
    })
  }
  const given = (name: string): unknown =>
    Object.hasOwn(metadata, name) ? metadata[name] : undefined
  for (const name of reservedClaims) {
    if (given(name) !== undefined) {
      throw new ConfigurationError({
        invalidAttribute: name,
        message: `${name} is set by the library and may not be given in UDAP registration metadata`,
      })
    }
  }
  const claims: Record<string, unknown> = {
    client_name: requireNonBlankString(given('client_name'), 'client_name', false),
    contacts: checkContacts(given('contacts')),
    scope: checkScope(given('scope')),
  }
  const grantTypes =
    operation === 'register'
      ? checkGrantTypes(given('grant_types'))
      : checkCancelGrantTypes(given('grant_types'))
  claims.grant_types = grantTypes
  if (grantTypes.includes('authorization_code')) {
    claims.response_types = checkResponseTypes(given('response_types'))
    claims.redirect_uris = checkRedirectUris(given('redirect_uris'), allowInsecureLocalhost)
    claims.logo_uri = checkLogoUri(given('logo_uri'))
  } else if (operation === 'register') {
    for (const name of ['response_types', 'redirect_uris', 'logo_uri']) {
      if (given(name) !== undefined) {
        throw new ConfigurationError({
          invalidAttribute: name,
          message: `${name} may be given only with the authorization_code grant type`,
        })
      }
    }
  }
  claims.token_endpoint_auth_method = 'private_key_jwt'
  for (const [name, value] of Object.entries(metadata)) {
    if (handledMembers.has(name) || value === undefined) continue
    const problem = jsonValueProblem(value)
    if (problem !== undefined) {
      throw new ConfigurationError({
        invalidAttribute: name,
        message: `${name} must be a JSON value; it ${problem}`,
      })
    }
    setMember(claims, name, value)
  }
  return frozenJsonCopy(claims) as RegistrationClaims
}

function checkContacts(value: unknown): string[] {
  const fail = (message: string, invalidValue?: unknown) =>
    new ConfigurationError({
      invalidAttribute: 'contacts',
      message,
      ...(invalidValue === undefined ? {} : { invalidValue }),
    })
  if (value === undefined)
    throw fail('contacts is required (an array of URIs with at least one mailto: address)')
  if (!Array.isArray(value) || value.length === 0) {
    throw fail(`contacts must be a non-empty array of URIs, not ${describeKind(value)}`)
  }
  for (const [index, contact] of value.entries()) {
    if (!isAbsoluteUri(contact)) {
      throw fail(
        `contacts[${index}] must be an absolute URI such as mailto:ops@example.org`,
        contact,
      )
    }
  }
  if (!value.some((contact: string) => mailtoPattern.test(contact))) {
    throw fail('contacts must include at least one valid mailto: URI (mailto:name@domain)')
  }
  return [...value]
}

function checkScope(value: unknown): string {
  if (typeof value === 'string' && scopePattern.test(value)) return value
  throw new ConfigurationError({
    invalidAttribute: 'scope',
    ...(typeof value === 'string' ? { invalidValue: value } : {}),
    message:
      value === undefined
        ? 'scope is required (space-separated scopes, e.g. "system/Patient.rs system/Observation.rs")'
        : 'scope must be a string of scope tokens separated by single spaces (RFC 6749 §3.3)',
  })
}

function checkGrantTypes(value: unknown): UdapGrantType[] {
  const fail = (message: string) =>
    new ConfigurationError({
      invalidAttribute: 'grant_types',
      validValues: grantTypeOrder,
      message,
    })
  if (value === undefined) {
    throw fail(
      'grant_types is required: ["client_credentials"] or ["authorization_code"] (optionally with "refresh_token")',
    )
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw fail(
      `grant_types must be a non-empty array (to cancel a registration use the cancel operation), not ${describeKind(value)}`,
    )
  }
  const unknown = value.find((grant) => !grantTypeOrder.includes(grant as UdapGrantType))
  if (unknown !== undefined)
    throw fail(`grant_types has an unsupported value ${describeValue(unknown)}`)
  if (new Set(value).size !== value.length) throw fail('grant_types lists a grant type twice')
  const grants = value as UdapGrantType[]
  const hasCode = grants.includes('authorization_code')
  // UDAP STU2: a software statement SHALL name exactly one of the two main grant types.
  if (hasCode === grants.includes('client_credentials')) {
    throw fail('grant_types must include exactly one of authorization_code and client_credentials')
  }
  if (grants.includes('refresh_token') && !hasCode) {
    throw fail('grant_types may include refresh_token only with authorization_code')
  }
  return grantTypeOrder.filter((grant) => grants.includes(grant))
}

function checkCancelGrantTypes(value: unknown): UdapGrantType[] {
  if (value === undefined) return []
  throw new ConfigurationError({
    invalidAttribute: 'grant_types',
    message:
      'grant_types must be omitted for a cancellation: the statement carries grant_types: [] itself',
  })
}

function checkRedirectUris(value: unknown, allowInsecureLocalhost: boolean): string[] {
  const fail = (message: string, invalidValue?: unknown) =>
    new ConfigurationError({
      invalidAttribute: 'redirect_uris',
      message,
      ...(invalidValue === undefined ? {} : { invalidValue }),
    })
  if (!Array.isArray(value) || value.length === 0) {
    throw fail(
      value === undefined
        ? 'redirect_uris is required with the authorization_code grant type'
        : `redirect_uris must be a non-empty array of HTTPS URLs, not ${describeKind(value)}`,
    )
  }
  for (const [index, uri] of value.entries()) {
    if (typeof uri !== 'string' || checkUrl(uri, allowInsecureLocalhost) !== undefined) {
      throw fail(
        `redirect_uris[${index}] must be an HTTPS URL`,
        typeof uri === 'string' ? uri : undefined,
      )
    }
    // RFC 6749 §3.1.2: the redirection endpoint URI MUST NOT include a fragment component.
    if (uri.includes('#')) throw fail(`redirect_uris[${index}] must not have a fragment`, uri)
  }
  return [...value]
}

/**
 * `response_types` is the library's to set (`["code"]` with authorization_code): a caller may
 * write that same value, never another one.
 */
function checkResponseTypes(value: unknown): ['code'] {
  if (value === undefined || (Array.isArray(value) && value.length === 1 && value[0] === 'code')) {
    return ['code']
  }
  throw new ConfigurationError({
    invalidAttribute: 'response_types',
    validValues: ['code'],
    message:
      'response_types is set by the library to ["code"] for the authorization_code grant; another value is refused',
  })
}

function checkLogoUri(value: unknown): string {
  if (value === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'logo_uri',
      message: 'logo_uri is required with the authorization_code grant type',
    })
  }
  // UDAP STU2 asks for an HTTPS logo whatever the redirect URIs: the server fetches it and shows
  // it to users, so loopback HTTP is no exception here.
  if (typeof value !== 'string' || checkUrl(value, false) !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'logo_uri',
      ...(typeof value === 'string' ? { invalidValue: value } : {}),
      message: 'logo_uri must be an HTTPS URL',
    })
  }
  // UDAP STU2: the logo SHALL be PNG, JPG or GIF; the path's file extension is what a client can check.
  if (!logoExtensionPattern.test(new URL(value).pathname)) {
    throw new ConfigurationError({
      invalidAttribute: 'logo_uri',
      invalidValue: value,
      message: 'logo_uri must point to a .png, .jpg, .jpeg or .gif image',
    })
  }
  return value
}
