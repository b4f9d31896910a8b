import { ConfigurationError } from '@fhir-auth/core/essentials'
import { describeKind } from '@fhir-auth/core/internal'
import { isPlainObject } from '@fhir-auth/core/internal/on-demand'
import { type B2bExtensionInput, b2bExtensionKey, buildB2bExtension } from './b2b-extension.js'
import {
  type B2bUserExtensionInput,
  b2bUserExtensionKey,
  buildB2bUserExtension,
} from './b2b-user-extension.js'
import { jsonValueProblem } from './json-value.js'

/**
 * The one key an extension cannot have: an own `__proto__` member (as `JSON.parse` makes one)
 * does not survive being copied or assigned in JavaScript, here or at the server.
 */
const prototypeKey = '__proto__'

/** The authorization extensions of a client_credentials request, as a caller gives them. */
export interface AuthorizationExtensionsInput {
  /** The typed shorthand of `hl7-b2b`. */
  readonly b2b?: B2bExtensionInput | undefined
  /** The typed shorthand of `hl7-b2b-user`. */
  readonly b2bUser?: B2bUserExtensionInput | undefined
  /**
   * Extension objects by key (TEFCA's `tefca_ias`, a network's own…), each a JSON object, signed
   * into the authentication token as given; not a key a shorthand above also gives.
   */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined
}

/**
 * The `extensions` claim of a UDAP authentication token: `extensions` as given, plus `hl7-b2b`
 * from `b2b` and `hl7-b2b-user` from `b2bUser`; `undefined` when there is none.
 *
 * @throws ConfigurationError `extensions` (not an object, a member that is not a JSON object (an
 *   array, a string…), the key `__proto__`, or a key a shorthand also gives), or the shorthand's
 *   own (`b2b.<field>`, `b2bUser.<field>`).
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#constructing-authentication-token
 */
export function buildAuthorizationExtensions(
  input: AuthorizationExtensionsInput,
): Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined {
  const given = input.extensions
  if (given !== undefined && !isPlainObject(given)) {
    throw new ConfigurationError({
      invalidAttribute: 'extensions',
      message: `extensions must be an object of extension objects by key, not ${describeKind(given)}`,
    })
  }
  const extensions: Record<string, Readonly<Record<string, unknown>>> = {}
  for (const [key, value] of Object.entries(given ?? {})) {
    if (key === prototypeKey) {
      throw new ConfigurationError({
        invalidAttribute: 'extensions',
        message: `extensions must not have the key "${prototypeKey}": JavaScript code (an object literal, an assignment, a merge) takes a member of that name for the object's prototype, so it would not reach the server as given`,
      })
    }
    const problem = isPlainObject(value) ? jsonValueProblem(value) : 'is not a JSON object'
    if (problem !== undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'extensions',
        message: `extensions[${JSON.stringify(key)}] must be a JSON object; it ${problem}`,
      })
    }
    extensions[key] = value as Readonly<Record<string, unknown>>
  }
  const shorthands = [
    [
      b2bExtensionKey,
      'b2b',
      input.b2b === undefined ? undefined : () => buildB2bExtension(input.b2b as B2bExtensionInput),
    ],
    [
      b2bUserExtensionKey,
      'b2bUser',
      input.b2bUser === undefined
        ? undefined
        : () => buildB2bUserExtension(input.b2bUser as B2bUserExtensionInput),
    ],
  ] as const
  for (const [key, name, build] of shorthands) {
    if (build === undefined) continue
    if (Object.hasOwn(extensions, key)) {
      throw new ConfigurationError({
        invalidAttribute: 'extensions',
        message: `extensions must not contain ${key} when ${name} is given`,
      })
    }
    extensions[key] = build()
  }
  return Object.keys(extensions).length === 0 ? undefined : extensions
}

/**
 * Refuses a client_credentials request that lacks an extension the server lists in
 * `udap_authorization_extensions_required`, before any token request: a `ConfigurationError` on
 * `b2b` for `hl7-b2b` (its typed shorthand), else on `extensions`, naming the missing key.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export function requireAuthorizationExtensions(
  required: readonly string[],
  given: Readonly<Record<string, unknown>> | undefined,
): void {
  const missing = required.filter((key) => given === undefined || !Object.hasOwn(given, key))
  if (missing.length === 0) return
  const named = missing.map((key) => JSON.stringify(key)).join(', ')
  // How to give each: the typed shorthands first, `extensions` for the rest.
  const ways = [
    ...(missing.includes(b2bExtensionKey) ? ['b2b { organizationId, purposeOfUse }'] : []),
    ...(missing.includes(b2bUserExtensionKey) ? ['b2bUser { userPerson, purposeOfUse }'] : []),
    `extensions { ${named}: { … } }`,
  ]
  throw new ConfigurationError({
    invalidAttribute: 'extensions',
    message: `the server requires the authorization extension${missing.length > 1 ? 's' : ''} ${named} (udap_authorization_extensions_required): pass ${ways.join(', or ')}`,
  })
}
