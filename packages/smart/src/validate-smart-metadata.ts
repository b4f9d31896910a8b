import type { Logger } from '@fhir-auth/core/essentials'
import { failSafeLogger } from '@fhir-auth/core/internal/checks'
import type { SmartMetadata } from './smart-metadata.js'

/**
 * Checks a SMART configuration document against SMART App Launch 2.2.0: the required fields,
 * the fields that capabilities make required (`authorization_endpoint` for launches; `issuer`
 * and `jwks_uri` for `sso-openid-connect`), `S256` present and `plain` absent. Writes one
 * warning per violation, starting `SMART metadata non-compliance: `. Never throws.
 *
 * A function rather than a method of {@link SmartMetadata}, so apps that only launch do not
 * carry it in their bundles.
 *
 * @returns true when the document has no violation.
 * @example
 * ```ts
 * const metadata = await discoverSmartConfiguration({ baseUrl: 'https://ehr.example.org/fhir' })
 * validateSmartMetadata(metadata, consoleLogger) // warnings name each missing or wrong field
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#response
 */
export function validateSmartMetadata(metadata: SmartMetadata, logger: Logger): boolean {
  const problems: string[] = []
  const capabilities = metadata.capabilities
  const required = [
    'grant_types_supported',
    'token_endpoint',
    'capabilities',
    'code_challenge_methods_supported',
  ]
  if (capabilities.includes('launch-ehr') || capabilities.includes('launch-standalone')) {
    required.push('authorization_endpoint')
  }
  if (capabilities.includes('sso-openid-connect')) required.push('issuer', 'jwks_uri')
  for (const field of required) {
    const value = metadata.raw[field]
    const isList = field === 'capabilities' || field.endsWith('_supported')
    if (value === undefined || value === null) problems.push(`required field '${field}' is missing`)
    else if (isList ? !Array.isArray(value) : typeof value !== 'string' || value === '') {
      problems.push(`'${field}' must be ${isList ? 'an array' : 'a non-empty string'}`)
    }
  }
  const methods = metadata.codeChallengeMethodsSupported
  if (methods && !methods.includes('S256')) {
    problems.push("code_challenge_methods_supported lacks 'S256' (required)")
  }
  if (methods?.includes('plain')) {
    problems.push("code_challenge_methods_supported has 'plain' (prohibited)")
  }
  // A broken logger must not turn a diagnostic into a failure.
  const safe = failSafeLogger(logger)
  for (const problem of problems) safe.warn(`SMART metadata non-compliance: ${problem}`)
  return problems.length === 0
}
