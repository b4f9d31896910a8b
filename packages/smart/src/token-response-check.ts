import { defaultLogger, describeValue, isJsonObject, type Logger } from '@fhir-auth/core'
import { isNonBlankString } from '@fhir-auth/core/internal'

/** Options of {@link isTokenResponseValid}. */
export interface TokenResponseCheckOptions {
  /** `app_launch` (default) or `backend_services`, which also requires `expires_in`. */
  readonly flow?: 'app_launch' | 'backend_services' | undefined
  /** Where the warnings go; defaults to core's `defaultLogger`. */
  readonly logger?: Logger | undefined
}

const prefix = 'SMART token response non-compliance: '

/**
 * Checks a token response against SMART App Launch 2.2.0 and writes one warning per
 * violation (`SMART token response non-compliance: …`): not a JSON object; `access_token` or
 * `scope` blank; `expires_in` blank for backend services; `token_type` missing or not exactly
 * `Bearer` or `bearer`. A diagnostic: it never throws, whatever it is given (throwing getters,
 * proxies, `null`), and never logs a token value.
 *
 * @returns true when there is no violation.
 * @example
 * ```ts
 * const tokens = await exchangeAuthorizationCode(options)
 * if (!isTokenResponseValid(tokens, { logger })) {
 *   // the server sent a token anyway; the warnings say which rule it broke
 * }
 * isTokenResponseValid(backendTokens, { flow: 'backend_services' }) // also requires expires_in
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#response-5
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html#response-1
 */
export function isTokenResponseValid(
  response: unknown,
  options?: TokenResponseCheckOptions,
): boolean {
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
    else {
      for (const field of ['access_token', 'scope']) {
        if (!isNonBlankString(response[field]))
          problems.push(`required field '${field}' is missing or blank`)
      }
      const expiresIn = response.expires_in
      if (
        backend &&
        (expiresIn === undefined ||
          expiresIn === null ||
          (typeof expiresIn === 'string' && !isNonBlankString(expiresIn)))
      ) {
        problems.push("required field 'expires_in' is missing or blank (SMART Backend Services)")
      }
      const tokenType = response.token_type
      if (tokenType === undefined || tokenType === null)
        problems.push("required field 'token_type' is missing")
      else if (tokenType !== 'Bearer' && tokenType !== 'bearer') {
        problems.push(`token_type is ${describeTokenType(tokenType)}; expected 'Bearer'`)
      }
    }
  } catch {
    problems.push('response could not be read')
  }
  for (const problem of problems) {
    try {
      logger.warn(prefix + problem)
    } catch {
      // The check is a diagnostic; a broken logger must not make it throw.
    }
  }
  return problems.length === 0
}

/** Short words are shown; anything longer could be a misplaced token, so only its length is. */
function describeTokenType(value: unknown): string {
  if (typeof value !== 'string') return describeValue(value)
  return /^[A-Za-z-]{1,16}$/.test(value)
    ? JSON.stringify(value)
    : `a string of ${value.length} characters`
}
