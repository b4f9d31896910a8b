/**
 * SMART scope grammar, as far as the sandbox needs it to decide what it grants.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html
 */

/** The compartment a clinical scope applies to. */
export type ScopeContext = 'patient' | 'user' | 'system'

/** One SMART v2 permission letter: create, read, update, delete, search. */
export type ScopePermission = 'c' | 'r' | 'u' | 'd' | 's'

/** A parsed clinical scope such as `patient/Observation.rs?category=laboratory`. */
export interface ClinicalScope {
  readonly context: ScopeContext
  /** A FHIR resource type, or `*` for all types. */
  readonly resourceType: string
  readonly permissions: ReadonlySet<ScopePermission>
  /** The v2 query constraint after `?`, when there is one. */
  readonly query: string | undefined
}

/** Scopes that ask for launch context rather than data access. */
export const launchScopes: ReadonlySet<string> = new Set([
  'launch',
  'launch/patient',
  'launch/encounter',
])

/**
 * Identity and refresh scopes. They are granted as OpenID Connect scopes (they release ID token
 * claims or a refresh token) and are echoed in the token response like every other scope.
 */
export const identityScopes: ReadonlySet<string> = new Set([
  'openid',
  'fhirUser',
  'profile',
  'offline_access',
  'online_access',
])

const clinicalScopePattern =
  /^(patient|user|system)\/(\*|[A-Z][A-Za-z]{1,63})\.(read|write|\*|c?r?u?d?s?)(\?[^\s?]+)?$/

const v1Permissions: Readonly<Record<string, readonly ScopePermission[]>> = {
  read: ['r', 's'],
  write: ['c', 'u', 'd'],
  '*': ['c', 'r', 'u', 'd', 's'],
}

/**
 * Parses a clinical scope (v1 `read`/`write`/`*` or v2 `cruds` letters in order), or gives
 * `undefined` for anything else. v1 forms are mapped to their v2 letters; a query constraint
 * is only allowed with v2 letters.
 */
export function parseClinicalScope(scope: string): ClinicalScope | undefined {
  const match = clinicalScopePattern.exec(scope)
  if (match === null) return undefined
  const [, context, resourceType, permissionText, queryText] = match
  if (context === undefined || resourceType === undefined || permissionText === undefined) {
    return undefined
  }
  // An empty v2 permission string ("patient/Observation.") matches the pattern but means nothing.
  if (permissionText === '') return undefined
  const v1 = v1Permissions[permissionText]
  if (v1 !== undefined && queryText !== undefined) return undefined
  const letters = v1 ?? ([...permissionText] as ScopePermission[])
  return {
    context: context as ScopeContext,
    resourceType,
    permissions: new Set(letters),
    query: queryText?.slice(1),
  }
}

/**
 * True for a scope an app-launch (authorization code) grant may carry: `patient/` or `user/`
 * clinical scopes, launch scopes and identity scopes. `system/` scopes belong to backend
 * services and are never granted to a user-facing authorization.
 */
export function isAppLaunchScope(scope: string): boolean {
  if (launchScopes.has(scope) || identityScopes.has(scope)) return true
  const parsed = parseClinicalScope(scope)
  return parsed !== undefined && parsed.context !== 'system'
}

/** True for a `system/` clinical scope, the only kind SMART Backend Services grants. */
export function isBackendServicesScope(scope: string): boolean {
  return parseClinicalScope(scope)?.context === 'system'
}

/** Splits a space-separated scope string into distinct scopes, dropping empty parts. */
export function splitScopes(scope: string | undefined): string[] {
  if (scope === undefined) return []
  return [...new Set(scope.split(' ').filter((part) => part !== ''))]
}

/** True when one of the scopes lets its holder read resources of `resourceType`. */
export function allowsRead(
  scopes: readonly string[],
  resourceType: string,
  context?: ScopeContext,
): boolean {
  return scopes.some((scope) => {
    const parsed = parseClinicalScope(scope)
    if (parsed === undefined) return false
    if (context !== undefined && parsed.context !== context) return false
    return (
      parsed.permissions.has('r') &&
      (parsed.resourceType === '*' || parsed.resourceType === resourceType)
    )
  })
}
