import type { Logger } from '../logging/logger.js'
import { provideScopeReader } from '../tokens/scope-reader.js'
import {
  interactionOrder,
  type ResourceScope,
  resourceScopeText,
  type ScopeContext,
  type ScopeInteraction,
  v1Words,
} from './resource-scope.js'
import { type LaunchScopes, ScopeSet, type ScopeSetParts } from './scope-set.js'
import { scopeWarning, shown } from './scope-warning.js'

/** Options of {@link parseScopes}. */
export interface ParseScopesOptions {
  /** Where warnings go (malformed scopes, permission words in another letter case); default `console.warn`. */
  readonly logger?: Logger | undefined
}

const contexts: readonly string[] = ['patient', 'user', 'system']
// A FHIR resource type name: an upper-case letter, then letters and digits (no backtracking).
const resourceTypeName = /^[A-Z][A-Za-z0-9]*$/u
// A FHIR search parameter name, with modifiers (`code:in`) and chains (`patient.birthdate`).
const parameterName = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/u

/**
 * Reads a SMART scope string (space-separated, as sent in `scope`, or as a list) into a
 * {@link ScopeSet}: resource scopes of SMART v1 (`patient/Observation.read`) and v2
 * (`patient/Observation.rs?category=laboratory`), launch scopes, `openid`, `fhirUser`,
 * `offline_access`, `online_access`, and every other scope kept as text.
 *
 * Never throws, and runs in time linear in the input. Permission words and letters in another
 * letter case (`.Read`, as some servers grant) are read with a warning; a resource scope that
 * breaks the grammar (empty segments, unknown or out-of-order letters such as `.sr`, repeated
 * letters, a `?` without parameters, a bad percent-encoding, restrictions on a v1 scope) lands in
 * `other` with a warning. Duplicates merge: `patient/Observation.r patient/Observation.s` is one
 * resource scope `patient/Observation.rs`.
 *
 * @example
 * ```ts
 * const scopes = parseScopes('patient/Observation.rs?category=laboratory launch/patient openid')
 * scopes.allows('patient', 'Observation', 'r', { category: 'laboratory' }) // true
 * scopes.launch.patient // true
 * scopes.toV1() // ['patient/Observation.read', 'launch/patient', 'openid'], with a warning: v1 widens
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html SMART 2.2 scopes and launch context
 */
export function parseScopes(
  scopes: string | readonly string[],
  options?: ParseScopesOptions,
): ScopeSet {
  const logger = options?.logger
  const tokens = scopeTokens(scopes)
  const merged = new Map<string, Mutable>()
  const launch = { ehr: false, patient: false, encounter: false, other: [] as string[] }
  const other = new Set<string>()
  const flags = new Set<string>()
  // Every scope in the order first written (a merged resource scope where its first part was),
  // so that translations keep the caller's order.
  const sequence: (Mutable | string)[] = []
  const seen = new Set<string>()
  const malformed: string[] = []
  const otherCase: string[] = []
  for (const token of tokens) {
    const slash = token.indexOf('/')
    if (slash > 0 && contexts.includes(token.slice(0, slash))) {
      const scope = readResourceScope(token, slash)
      if (scope === undefined) {
        malformed.push(token)
        other.add(token)
      } else {
        if (scope.otherCase) otherCase.push(token)
        const key = `${scope.context}/${scope.resourceType}.${scope.version}${JSON.stringify(scope.query)}`
        const existing = merged.get(key)
        if (existing === undefined) {
          merged.set(key, scope)
          sequence.push(scope)
        } else for (const letter of scope.interactions) existing.interactions.add(letter)
        continue
      }
    } else if (token === 'launch') launch.ehr = true
    else if (token === 'launch/patient') launch.patient = true
    else if (token === 'launch/encounter') launch.encounter = true
    else if (token.startsWith('launch/') && token.length > 7 && !token.includes('/', 7)) {
      if (!launch.other.includes(token)) launch.other.push(token)
    } else if (
      token === 'openid' ||
      token === 'fhirUser' ||
      token === 'offline_access' ||
      token === 'online_access'
    )
      flags.add(token)
    else other.add(token)
    if (!seen.has(token)) {
      seen.add(token)
      sequence.push(token)
    }
  }
  const warn = scopeWarning(logger)
  if (otherCase.length > 0)
    warn(
      `Scope permissions in another letter case read as lower case: ${shown(otherCase)}`,
      'scope.letter_case',
      otherCase.length,
    )
  if (malformed.length > 0)
    warn(
      `Malformed SMART resource scopes kept as text: ${shown(malformed)}`,
      'scope.malformed',
      malformed.length,
    )
  const frozen = new Map([...merged.values()].map((scope) => [scope, frozenScope(scope)]))
  const parts: ScopeSetParts = {
    resources: [...frozen.values()],
    sequence: sequence.map((item) =>
      typeof item === 'string' ? item : (frozen.get(item) as ResourceScope),
    ),
    launch: Object.freeze({ ...launch, other: Object.freeze(launch.other) }) as LaunchScopes,
    openid: flags.has('openid'),
    fhirUser: flags.has('fhirUser'),
    offlineAccess: flags.has('offline_access'),
    onlineAccess: flags.has('online_access'),
    other: [...other],
    logger,
    parse: (text, given) => parseScopes(text, { logger: given }),
  }
  return new ScopeSet(parts)
}

interface Mutable {
  readonly context: ScopeContext
  readonly resourceType: string
  readonly interactions: Set<ScopeInteraction>
  readonly query: readonly (readonly [string, string])[]
  readonly version: 1 | 2
  readonly otherCase: boolean
}

/** The scope tokens of a string or list: split on spaces, blanks dropped. Never throws. */
function scopeTokens(scopes: unknown): string[] {
  const list = typeof scopes === 'string' ? [scopes] : Array.isArray(scopes) ? scopes : []
  const tokens: string[] = []
  for (const entry of list) {
    if (typeof entry !== 'string') continue
    for (const token of entry.split(/[ \t\r\n]/u)) if (token !== '') tokens.push(token)
  }
  return tokens
}

/** `context/Type.permissions[?query]` per the SMART grammar, else `undefined`. */
function readResourceScope(token: string, slash: number): Mutable | undefined {
  const mark = token.indexOf('?', slash)
  const head = mark < 0 ? token : token.slice(0, mark)
  const dot = head.indexOf('.', slash + 1)
  if (dot < 0) return undefined
  const resourceType = head.slice(slash + 1, dot)
  if (resourceType !== '*' && !resourceTypeName.test(resourceType)) return undefined
  const written = head.slice(dot + 1)
  const permissions = written.toLowerCase()
  const word = Object.hasOwn(v1Words, permissions) ? v1Words[permissions] : undefined
  const letters = word ?? inOrderLetters(permissions)
  if (letters === undefined) return undefined
  const query = mark < 0 ? [] : readQuery(token.slice(mark + 1))
  // v1 knows no restrictions: `patient/Observation.read?category=x` is neither v1 nor v2.
  if (query === undefined || (word !== undefined && query.length > 0)) return undefined
  return {
    context: token.slice(0, slash) as ScopeContext,
    resourceType,
    interactions: new Set([...letters] as ScopeInteraction[]),
    query,
    version: word === undefined ? 2 : 1,
    otherCase: written !== permissions,
  }
}

/** A non-empty subset of `cruds` in that order, each letter once; else `undefined`. */
function inOrderLetters(permissions: string): string | undefined {
  if (permissions === '' || permissions.length > interactionOrder.length) return undefined
  let position = -1
  for (const letter of permissions) {
    const next = interactionOrder.indexOf(letter as ScopeInteraction)
    if (next <= position) return undefined
    position = next
  }
  return permissions
}

/**
 * `param=value&…` decoded; `undefined` for an empty segment, a missing `=`, name or value, a
 * name that is no search parameter name, or bad percent-encoding.
 */
function readQuery(text: string): [string, string][] | undefined {
  if (text === '') return undefined
  const pairs: [string, string][] = []
  for (const segment of text.split('&')) {
    const equals = segment.indexOf('=')
    if (equals <= 0 || equals === segment.length - 1) return undefined
    try {
      const name = decodeURIComponent(segment.slice(0, equals))
      if (!parameterName.test(name)) return undefined
      pairs.push([name, decodeURIComponent(segment.slice(equals + 1))])
    } catch {
      return undefined
    }
  }
  return pairs
}

function frozenScope(scope: Mutable): ResourceScope {
  const { context, resourceType, interactions, query, version } = scope
  return Object.freeze({
    context,
    resourceType,
    interactions: new Set(interactionOrder.filter((letter) => interactions.has(letter))),
    query: Object.freeze(query.map((pair) => Object.freeze([...pair] as const))),
    version,
    text: resourceScopeText(context, resourceType, interactions, query, version),
  })
}

// `TokenSet.grantedScopes` reads scopes through this (see tokens/scope-reader.ts).
provideScopeReader((scopes, logger) => parseScopes(scopes, { logger }))
