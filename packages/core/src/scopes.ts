/**
 * `@fhir-auth/core/scopes`: SMART scopes as data — `parseScopes` and `ScopeSet` (v1 and v2
 * resource scopes with search restrictions, launch and identity scopes), re-exported by
 * `@fhir-auth/smart` and `@fhir-auth/client`. An entry of its own so that code which never reads
 * scopes never loads the parser (ADR 0012).
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html SMART 2.2 scopes and launch context
 * @packageDocumentation
 */

export { type ParseScopesOptions, parseScopes } from './scopes/parse-scopes.js'
export type { ResourceScope, ScopeContext, ScopeInteraction } from './scopes/resource-scope.js'
export {
  type LaunchScopes,
  type ScopeComparison,
  type ScopeQuery,
  ScopeSet,
} from './scopes/scope-set.js'
