import { DiscoveryError, isJsonObject } from '@fhir-auth/core/essentials'
import { endpointMember, endpointProblem } from './uri.js'

/**
 * The UDAP metadata document (IG STU2 table 2.2) after the structural checks of
 * {@link parseUdapMetadata}: every list a (possibly empty) array of strings, the required
 * endpoints usable URLs. An empty array means "not supported", as the IG says clients SHALL
 * read it. Unknown members are not copied here; they stay in the raw document.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#required-udap-metadata
 */
export interface UdapMetadataDocument {
  readonly udap_versions_supported: readonly string[]
  readonly udap_profiles_supported: readonly string[]
  readonly udap_authorization_extensions_supported: readonly string[]
  readonly udap_authorization_extensions_required: readonly string[]
  readonly udap_certifications_supported: readonly string[]
  readonly udap_certifications_required: readonly string[]
  readonly grant_types_supported: readonly string[]
  readonly scopes_supported: readonly string[]
  readonly authorization_endpoint: string | undefined
  readonly token_endpoint: string
  readonly token_endpoint_auth_methods_supported: readonly string[]
  readonly token_endpoint_auth_signing_alg_values_supported: readonly string[]
  readonly registration_endpoint: string
  readonly registration_endpoint_jwt_signing_alg_values_supported: readonly string[]
  /** The compact JWS, not yet verified: see `verifySignedMetadata`. */
  readonly signed_metadata: string
}

/**
 * The members of a UDAP metadata document (IG STU2 table 2.2) other than `signed_metadata`, in
 * the table's order: the values a `signed_metadata` may carry, which then take precedence.
 *
 * @internal
 */
export const udapMetadataMembers = [
  'udap_versions_supported',
  'udap_profiles_supported',
  'udap_authorization_extensions_supported',
  'udap_authorization_extensions_required',
  'udap_certifications_supported',
  'udap_certifications_required',
  'grant_types_supported',
  'scopes_supported',
  'authorization_endpoint',
  'token_endpoint',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
  'registration_endpoint',
  'registration_endpoint_jwt_signing_alg_values_supported',
] as const satisfies readonly Exclude<keyof UdapMetadataDocument, 'signed_metadata'>[]

/** Options of {@link parseUdapMetadata}. */
export interface ParseUdapMetadataOptions {
  /** The discovery URL the document came from, for error messages and `DiscoveryError.endpoint`. */
  readonly endpoint: string
  /** Accept `http://` endpoints on loopback hosts (development only). */
  readonly allowInsecureLocalhost: boolean
}

/** What {@link parseUdapMetadata} returns. */
export interface ParsedUdapMetadata {
  readonly document: UdapMetadataDocument
  /** Tolerated deviations from STU2, one sentence each; discovery logs each as a warning. */
  readonly problems: readonly string[]
}

const compactJwsPattern = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/**
 * Checks a UDAP metadata document against the STU2 structural rules (no I/O, no crypto).
 *
 * Fatal — a `DiscoveryError` listing every fatal problem, because the client cannot work or
 * cannot trust the server without these:
 * - the document is not a JSON object;
 * - `udap_versions_supported` does not include `"1"`;
 * - `token_endpoint` or `registration_endpoint` missing or not a usable HTTPS URL, or an
 *   `authorization_endpoint` that is present but not one (HTTP only on loopback hosts with
 *   `allowInsecureLocalhost`);
 * - `token_endpoint_auth_signing_alg_values_supported` or
 *   `registration_endpoint_jwt_signing_alg_values_supported` not a non-empty array of strings
 *   (the client must choose an algorithm the server accepts);
 * - `signed_metadata` missing or not shaped as a compact JWS.
 *
 * Tolerated — returned in `problems` (the other list fields then read as empty arrays):
 * `udap_versions_supported` other than exactly `["1"]`; missing or malformed lists; profiles
 * without `udap_dcr` / `udap_authn`, or without `udap_authz` while `client_credentials` is
 * supported; a `*_required` list missing while its `*_supported` list is non-empty, or not a
 * subset of it; no grant type among `authorization_code` / `client_credentials`;
 * `refresh_token` without `authorization_code`; `authorization_endpoint` present without the
 * `authorization_code` grant or missing with it; empty `scopes_supported`;
 * `token_endpoint_auth_methods_supported` other than `["private_key_jwt"]`. Capability
 * predicates on `UdapMetadata` answer from the lists as they are, so a tolerated problem shows
 * up as an unsupported capability rather than an exception.
 *
 * @throws DiscoveryError with `endpoint` = `options.endpoint`, naming each fatal problem.
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#required-udap-metadata
 */
export function parseUdapMetadata(
  json: unknown,
  options: ParseUdapMetadataOptions,
): ParsedUdapMetadata {
  return readUdapMetadata(json, options, `UDAP metadata from ${options.endpoint}`)
}

/**
 * {@link parseUdapMetadata} with the subject its error messages name (the unsigned document, or
 * the document with the values of a verified `signed_metadata` in place).
 *
 * @internal
 */
export function readUdapMetadata(
  json: unknown,
  options: ParseUdapMetadataOptions,
  subject: string,
): ParsedUdapMetadata {
  const { endpoint } = options
  if (!isJsonObject(json)) {
    throw new DiscoveryError({ endpoint, message: `${subject} is not a JSON object` })
  }
  const fatal: string[] = []
  const problems: string[] = []
  const list = (name: string): readonly string[] => {
    const result = readStringList(json, name)
    if (result.problem !== undefined) problems.push(`${name} ${result.problem}`)
    return result.values
  }
  const requiredList = (name: string): readonly string[] => {
    const result = readStringList(json, name)
    if (result.problem !== undefined) fatal.push(`${name} ${result.problem}`)
    else if (result.values.length === 0) fatal.push(`${name} is empty`)
    return result.values
  }
  const requiredEndpoint = (name: string): string => {
    const problem = endpointProblem(json[name], options.allowInsecureLocalhost)
    if (problem !== undefined) fatal.push(`${name} ${problem}`)
    return typeof json[name] === 'string' ? json[name] : ''
  }

  // UDAP: udap_versions_supported SHALL be ["1"]; without "1" we share no protocol version.
  const versions = readStringList(json, 'udap_versions_supported')
  if (json.udap_versions_supported === undefined || !Array.isArray(json.udap_versions_supported)) {
    fatal.push(`udap_versions_supported ${versions.problem}`)
  } else if (!versions.values.includes('1')) {
    fatal.push('udap_versions_supported does not include "1"')
  } else if (versions.values.length !== 1 || versions.problem !== undefined) {
    problems.push('udap_versions_supported is not exactly ["1"]')
  }
  const tokenEndpoint = requiredEndpoint('token_endpoint')
  const registrationEndpoint = requiredEndpoint('registration_endpoint')
  let authorizationEndpoint: string | undefined
  if (endpointMember(json.authorization_endpoint) !== undefined) {
    const problem = endpointProblem(json.authorization_endpoint, options.allowInsecureLocalhost)
    if (problem !== undefined) fatal.push(`authorization_endpoint ${problem}`)
    else authorizationEndpoint = json.authorization_endpoint as string
  }
  const tokenAlgorithms = requiredList('token_endpoint_auth_signing_alg_values_supported')
  const registrationAlgorithms = requiredList(
    'registration_endpoint_jwt_signing_alg_values_supported',
  )
  const signedMetadata = json.signed_metadata
  if (typeof signedMetadata !== 'string' || !compactJwsPattern.test(signedMetadata)) {
    fatal.push(
      signedMetadata === undefined
        ? 'signed_metadata is missing'
        : 'signed_metadata is not a compact JWS',
    )
  }
  if (fatal.length > 0) {
    throw new DiscoveryError({
      endpoint,
      message: `${subject} is unusable: ${fatal.join('; ')}`,
    })
  }

  const profiles = list('udap_profiles_supported')
  const grantTypes = list('grant_types_supported')
  for (const profile of ['udap_dcr', 'udap_authn']) {
    if (!profiles.includes(profile)) problems.push(`udap_profiles_supported lacks ${profile}`)
  }
  if (grantTypes.includes('client_credentials') && !profiles.includes('udap_authz')) {
    problems.push(
      'udap_profiles_supported lacks udap_authz although client_credentials is supported',
    )
  }
  if (!grantTypes.includes('authorization_code') && !grantTypes.includes('client_credentials')) {
    problems.push('grant_types_supported has neither authorization_code nor client_credentials')
  }
  if (grantTypes.includes('refresh_token') && !grantTypes.includes('authorization_code')) {
    problems.push('grant_types_supported has refresh_token without authorization_code')
  }
  if (grantTypes.includes('authorization_code') && json.authorization_endpoint === undefined) {
    problems.push('authorization_endpoint is missing although authorization_code is supported')
  }
  if (!grantTypes.includes('authorization_code') && json.authorization_endpoint !== undefined) {
    problems.push('authorization_endpoint is present although authorization_code is not supported')
  }
  const scopes = list('scopes_supported')
  if (json.scopes_supported !== undefined && scopes.length === 0) {
    problems.push('scopes_supported is empty')
  }
  const authenticationMethods = list('token_endpoint_auth_methods_supported')
  if (authenticationMethods.length !== 1 || authenticationMethods[0] !== 'private_key_jwt') {
    problems.push('token_endpoint_auth_methods_supported is not exactly ["private_key_jwt"]')
  }
  const extensionsSupported = list('udap_authorization_extensions_supported')
  const extensionsRequired = conditionalSubset(
    json,
    'udap_authorization_extensions_required',
    'udap_authorization_extensions_supported',
    extensionsSupported,
    problems,
  )
  const certificationsSupported = list('udap_certifications_supported')
  const certificationsRequired = conditionalSubset(
    json,
    'udap_certifications_required',
    'udap_certifications_supported',
    certificationsSupported,
    problems,
  )

  const document: UdapMetadataDocument = {
    udap_versions_supported: Object.freeze([...versions.values]),
    udap_profiles_supported: profiles,
    udap_authorization_extensions_supported: extensionsSupported,
    udap_authorization_extensions_required: extensionsRequired,
    udap_certifications_supported: certificationsSupported,
    udap_certifications_required: certificationsRequired,
    grant_types_supported: grantTypes,
    scopes_supported: scopes,
    authorization_endpoint: authorizationEndpoint,
    token_endpoint: tokenEndpoint,
    token_endpoint_auth_methods_supported: authenticationMethods,
    token_endpoint_auth_signing_alg_values_supported: tokenAlgorithms,
    registration_endpoint: registrationEndpoint,
    registration_endpoint_jwt_signing_alg_values_supported: registrationAlgorithms,
    signed_metadata: signedMetadata as string,
  }
  return { document: Object.freeze(document), problems: Object.freeze(problems) }
}

/**
 * A `*_required` list: SHALL be present when its `*_supported` list is non-empty, and SHALL
 * be a subset of it. Deviations are recorded; the list is read as given (or empty).
 */
function conditionalSubset(
  json: Readonly<Record<string, unknown>>,
  requiredName: string,
  supportedName: string,
  supported: readonly string[],
  problems: string[],
): readonly string[] {
  const required = readStringList(json, requiredName)
  if (json[requiredName] === undefined) {
    if (supported.length > 0) {
      problems.push(`${requiredName} is missing although ${supportedName} is not empty`)
    }
    return required.values
  }
  if (required.problem !== undefined) problems.push(`${requiredName} ${required.problem}`)
  const extra = required.values.filter((value) => !supported.includes(value))
  if (extra.length > 0) problems.push(`${requiredName} is not a subset of ${supportedName}`)
  return required.values
}

interface StringList {
  readonly values: readonly string[]
  readonly problem: string | undefined
}

/** Reads a member as an array of strings; non-string entries are dropped and reported. */
function readStringList(json: Readonly<Record<string, unknown>>, name: string): StringList {
  const value = json[name]
  if (value === undefined) return { values: Object.freeze([]), problem: 'is missing' }
  if (!Array.isArray(value)) return { values: Object.freeze([]), problem: 'is not an array' }
  const values = value.filter((entry): entry is string => typeof entry === 'string')
  return {
    values: Object.freeze(values),
    problem: values.length === value.length ? undefined : 'contains entries that are not strings',
  }
}
