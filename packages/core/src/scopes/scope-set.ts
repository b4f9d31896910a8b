import type { Logger } from '../logging/logger.js'
import {
  lettersOf,
  queryText,
  type ResourceScope,
  type ScopeContext,
  type ScopeInteraction,
} from './resource-scope.js'
import { scopeWarning, shown } from './scope-warning.js'

/** The launch-context scopes of a set. */
export interface LaunchScopes {
  /** `launch`: an EHR launch's context. */
  readonly ehr: boolean
  /** `launch/patient`. */
  readonly patient: boolean
  /** `launch/encounter`. */
  readonly encounter: boolean
  /** Any other `launch/…` scope, as written (e.g. `launch/imagingstudy`). */
  readonly other: readonly string[]
}

/** What {@link ScopeSet.compare} finds, each as scope text. */
export interface ScopeComparison {
  /** Asked for (in this set) and not covered by the other; a partly covered scope names the rest. */
  readonly missing: string[]
  /** In the other set and not covered by this one. */
  readonly extra: string[]
}

/**
 * The search parameters of a request, for {@link ScopeSet.allows}: a parameter given several
 * times is an array.
 */
export type ScopeQuery = Readonly<Record<string, string | readonly string[]>>

/**
 * What {@link ScopeSet} is made of (by `parseScopes`).
 *
 * @internal
 */
export interface ScopeSetParts {
  readonly resources: readonly ResourceScope[]
  readonly launch: LaunchScopes
  readonly openid: boolean
  readonly fhirUser: boolean
  readonly offlineAccess: boolean
  readonly onlineAccess: boolean
  readonly other: readonly string[]
  /** Every scope (resource scopes merged, the others as written) in the order first written. */
  readonly sequence: readonly (ResourceScope | string)[]
  readonly logger: Logger | undefined
  /** `parseScopes`, for `compare` given text (a parameter rather than an import: no cycle). */
  readonly parse: (scopes: string | readonly string[], logger: Logger | undefined) => ScopeSet
}

/**
 * SMART scopes as data, made by `parseScopes`: what a scope string asks for or a server granted,
 * compared by meaning rather than by text (v1 `read` is v2 `rs`; `Observation.r Observation.s`
 * is `Observation.rs`).
 *
 * @example
 * ```ts
 * const asked = parseScopes(['patient/Observation.rs', 'patient/Condition.rs', 'openid'])
 * const { missing } = asked.compare(session.tokens.grantedScopes)
 * if (missing.length > 0) console.log(`not granted: ${missing.join(' ')}`)
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html SMART 2.2 scopes and launch context
 */
export class ScopeSet {
  /** The clinical-data scopes, duplicates merged. */
  readonly resources: readonly ResourceScope[]
  readonly launch: LaunchScopes
  /** `openid`: an ID token is asked for. */
  readonly openid: boolean
  /** `fhirUser`: the ID token names the user's FHIR resource. */
  readonly fhirUser: boolean
  /** `offline_access`: a refresh token that outlives the user's session. */
  readonly offlineAccess: boolean
  /** `online_access`: a refresh token for as long as the user is online. */
  readonly onlineAccess: boolean
  /** Every scope this parser does not know (`profile`, extension scopes…) and malformed resource scopes, as written. */
  readonly other: readonly string[]
  readonly #parts: ScopeSetParts

  /** @internal Use `parseScopes`. */
  constructor(parts: ScopeSetParts) {
    this.#parts = parts
    this.resources = Object.freeze([...parts.resources])
    this.launch = parts.launch
    this.openid = parts.openid
    this.fhirUser = parts.fhirUser
    this.offlineAccess = parts.offlineAccess
    this.onlineAccess = parts.onlineAccess
    this.other = Object.freeze([...parts.other])
    Object.freeze(this)
  }

  /**
   * Whether some resource scope of the set permits this interaction on this resource type in
   * this context. A scope restricted by search parameters (`?category=laboratory`) permits only
   * a request that carries each of them with the same value (compared as text, after
   * percent-decoding): the restriction is a filter the request must already apply.
   */
  allows(
    context: ScopeContext,
    resourceType: string,
    interaction: ScopeInteraction,
    query: ScopeQuery = {},
  ): boolean {
    return this.resources.some(
      (scope) =>
        scope.context === context &&
        (scope.resourceType === '*' || scope.resourceType === resourceType) &&
        scope.interactions.has(interaction) &&
        scope.query.every(([name, value]) => carries(query, name, value)),
    )
  }

  /**
   * The whole set in SMART v1 form (non-resource scopes kept). v1 has no letters or search
   * restrictions: a scope it cannot express exactly becomes the smallest v1 scope that covers it
   * (`patient/Observation.r` → `patient/Observation.read`, `…rs?category=x` → `….read`, `…cr` →
   * `….*`), with one warning (`scope.widened`) naming those.
   */
  toV1(): string[] {
    const widened: string[] = []
    const scopes = this.#parts.sequence.map((scope) => {
      if (typeof scope === 'string') return scope
      const letters = lettersOf(scope.interactions)
      const reads = /[rs]/u.test(letters)
      const writes = /[cud]/u.test(letters)
      const word = reads && writes ? '*' : reads ? 'read' : 'write'
      const exact = { '*': 'cruds', read: 'rs', write: 'cud' }[word] === letters
      if (!exact || scope.query.length > 0) widened.push(scope.text)
      return `${scope.context}/${scope.resourceType}.${word}`
    })
    if (widened.length > 0)
      scopeWarning(this.#parts.logger)(
        `SMART v1 cannot express these scopes exactly; asking for wider ones: ${shown(widened)}`,
        'scope.widened',
        widened.length,
      )
    return unique(scopes)
  }

  /** The whole set in SMART v2 form (non-resource scopes kept): exact, v1 words as letters. */
  toV2(): string[] {
    return unique(
      this.#parts.sequence.map((scope) => (typeof scope === 'string' ? scope : v2Text(scope))),
    )
  }

  /**
   * Compares by meaning what this set asks for with `granted` (a `ScopeSet`, a scope string or a
   * list): `missing` is what this set has that `granted` does not cover (a scope partly covered
   * names the letters left, in v2 form), `extra` what `granted` has beyond this set. v1 `read`
   * and v2 `rs` are equal; `patient/*.rs` covers `patient/Observation.r`; a scope without
   * search restrictions covers the same scope with them.
   */
  compare(granted: ScopeSet | string | readonly string[]): ScopeComparison {
    const other =
      granted instanceof ScopeSet ? granted : this.#parts.parse(granted, this.#parts.logger)
    return { missing: uncovered(this, other), extra: uncovered(other, this) }
  }

  /** The set as one scope string, each scope in canonical form. */
  toString(): string {
    return this.#parts.sequence
      .map((scope) => (typeof scope === 'string' ? scope : scope.text))
      .join(' ')
  }
}

function nonResourceScopes(set: ScopeSet): string[] {
  const { launch } = set
  const named: [boolean, string][] = [
    [launch.ehr, 'launch'],
    [launch.patient, 'launch/patient'],
    [launch.encounter, 'launch/encounter'],
  ]
  const flags: [boolean, string][] = [
    [set.openid, 'openid'],
    [set.fhirUser, 'fhirUser'],
    [set.offlineAccess, 'offline_access'],
    [set.onlineAccess, 'online_access'],
  ]
  const pick = (list: [boolean, string][]) => list.filter(([on]) => on).map(([, name]) => name)
  return [...pick(named), ...launch.other, ...pick(flags), ...set.other]
}

function v2Text(scope: ResourceScope): string {
  return `${scope.context}/${scope.resourceType}.${lettersOf(scope.interactions)}${queryText(scope.query)}`
}

function carries(query: ScopeQuery, name: string, value: string): boolean {
  if (typeof query !== 'object' || query === null || !Object.hasOwn(query, name)) return false
  const given = query[name]
  return typeof given === 'string' ? given === value : Array.isArray(given) && given.includes(value)
}

/** What `from` has that `by` does not cover. */
function uncovered(from: ScopeSet, by: ScopeSet): string[] {
  const result: string[] = []
  for (const scope of from.resources) {
    let left = ''
    for (const letter of scope.interactions) {
      const covered = by.resources.some(
        (wider) =>
          wider.context === scope.context &&
          (wider.resourceType === '*' || wider.resourceType === scope.resourceType) &&
          wider.interactions.has(letter) &&
          wider.query.every(([name, value]) =>
            scope.query.some(([n, v]) => n === name && v === value),
          ),
      )
      if (!covered) left += letter
    }
    if (left === lettersOf(scope.interactions)) result.push(scope.text)
    else if (left !== '')
      result.push(`${scope.context}/${scope.resourceType}.${left}${queryText(scope.query)}`)
  }
  const present = new Set(nonResourceScopes(by))
  for (const name of nonResourceScopes(from)) if (!present.has(name)) result.push(name)
  return unique(result)
}

function unique(scopes: string[]): string[] {
  return [...new Set(scopes)]
}
