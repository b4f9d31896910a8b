/**
 * `@fhir-auth/smart/token-response-check`: SMART's checks of a token response alone. An entry of
 * its own because `Client.isTokenResponseValid` is synchronous and so loads up front, where the
 * app-launch path (`@fhir-auth/smart/launch`) must not come with it (ADR 0012).
 *
 * @packageDocumentation
 */
import type { Logger, TokenResponse } from '@fhir-auth/core/essentials'
import {
  describeKind,
  failSafeLogger,
  hasTokenResponseMemberType,
  isNonBlankString,
  type TokenResponseMemberType,
  tokenResponseMemberTypes,
} from '@fhir-auth/core/internal/checks'
import { defaultLogger, describeValue, isJsonObject } from '@fhir-auth/core/internal/up-front'

/** Options of {@link isTokenResponseValid}. */
export interface TokenResponseCheckOptions {
  /** `app_launch` (default) or `backend_services`, which also requires `expires_in`. */
  readonly flow?: 'app_launch' | 'backend_services' | undefined
  /** Where the warnings go; defaults to core's `defaultLogger`. */
  readonly logger?: Logger | undefined
}

const prefix = 'SMART token response non-compliance: '

/**
 * Checks a token response against SMART App Launch 2.2.0 and the JSON types `TokenResponse`
 * names, and writes one warning per violation (`SMART token response non-compliance: …`): not
 * a JSON object; `access_token` or `scope` missing or blank; `expires_in` missing or blank for
 * backend services; `token_type` missing or not exactly `Bearer` or `bearer`; any other named
 * member present with another JSON type (`expires_in` a string, `patient` a number,
 * `need_patient_banner` a string, `fhirContext` not an array of objects, `null` for any of
 * them…). A diagnostic: it never throws, whatever it is given (throwing getters, proxies,
 * `null`), and never logs a member's value, only its JSON type.
 *
 * @returns true when there is no violation; the response is then a `TokenResponse` as typed.
 * @example
 * ```ts
 * const tokens: unknown = await response.json()
 * if (isTokenResponseValid(tokens, { logger })) {
 *   const patient: string | undefined = tokens.patient // narrowed: no cast
 * }
 * isTokenResponseValid(backendTokens, { flow: 'backend_services' }) // also requires expires_in
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html#response-1
 */
export function isTokenResponseValid(
  response: unknown,
  options?: TokenResponseCheckOptions,
): response is TokenResponse {
  const problems: string[] = []
  let backend = false
  let logger: Logger = defaultLogger
  try {
    backend = options?.flow === 'backend_services'
    logger = options?.logger ?? defaultLogger
  } catch {
    // Hostile options: check as app launch and warn through the default logger.
  }
  try {
    if (!isJsonObject(response)) problems.push('response is not a JSON object')
    else problems.push(...memberProblems(response, backend))
  } catch {
    problems.push('response could not be read')
  }
  // The check is a diagnostic; a broken logger must not make it throw.
  const safe = failSafeLogger(logger)
  for (const problem of problems) safe.warn(prefix + problem)
  return problems.length === 0
}

/** SMART's required members first, then the JSON type of every other named member present. */
function memberProblems(response: Readonly<Record<string, unknown>>, backend: boolean): string[] {
  const problems: string[] = []
  const reported = new Set<string>()
  const report = (member: string, problem: string) => {
    reported.add(member)
    problems.push(problem)
  }
  // expires_in is required only of backend services (SMART Backend Services, token response).
  for (const member of backend
    ? ['access_token', 'scope', 'expires_in']
    : ['access_token', 'scope']) {
    const value = response[member]
    if (
      value === undefined ||
      value === null ||
      (typeof value === 'string' && !isNonBlankString(value))
    ) {
      report(
        member,
        `required field '${member}' is missing or blank${member === 'expires_in' ? ' (SMART Backend Services)' : ''}`,
      )
    }
  }
  const tokenType = response.token_type
  if (tokenType === undefined || tokenType === null)
    report('token_type', "required field 'token_type' is missing")
  else if (tokenType !== 'Bearer' && tokenType !== 'bearer') {
    report('token_type', `token_type is ${describeTokenType(tokenType)}; expected 'Bearer'`)
  }
  for (const [member, type] of Object.entries(tokenResponseMemberTypes)) {
    const value = response[member]
    if (value === undefined || reported.has(member)) continue
    if (!hasTokenResponseMemberType(value, type)) {
      problems.push(
        `${member} is ${describeMemberKind(value, type)}; expected ${withArticle(type)}`,
      )
    }
  }
  return problems
}

/** The JSON type of a value of the wrong type (never the value: it may be a token). */
function describeMemberKind(value: unknown, expected: TokenResponseMemberType): string {
  if (expected === 'array of objects' && Array.isArray(value)) return 'an array with other entries'
  if (typeof value === 'number' && !Number.isFinite(value)) return 'not a finite number'
  return describeKind(value)
}

function withArticle(type: TokenResponseMemberType): string {
  return type === 'array of objects' ? 'an array of objects' : `a ${type}`
}

/** Short words are shown; anything longer could be a misplaced token, so only its length is. */
function describeTokenType(value: unknown): string {
  if (typeof value !== 'string') return describeValue(value)
  return /^[A-Za-z-]{1,16}$/.test(value)
    ? JSON.stringify(value)
    : `a string of ${value.length} characters`
}
