import { splitScopes } from '../smart/smart-scopes.js'

/**
 * Whether `scope` is covered by `allowed`: listed as is, or by a wildcard of the same context
 * and permissions (`system/*.rs` covers `system/Observation.rs`). A SMART v2 query suffix
 * (`?category=…`) is ignored for the comparison.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html (scopes_supported)
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html
 */
export function isScopeCovered(scope: string, allowed: readonly string[]): boolean {
  if (allowed.includes(scope)) return true
  const match = /^(patient|user|system)\/[A-Za-z]+\.([a-z]+)(\?.*)?$/.exec(scope)
  if (match === null) return false
  return allowed.includes(`${match[1]}/*.${match[2]}`)
}

/** The space-separated scopes of `requested` that `allowed` covers, in request order. */
export function grantScopes(requested: string, allowed: readonly string[]): string[] {
  return splitScopes(requested).filter((scope) => isScopeCovered(scope, allowed))
}
