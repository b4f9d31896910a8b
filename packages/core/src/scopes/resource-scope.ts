/**
 * One SMART clinical-data scope read as data: `patient/Observation.rs?category=laboratory`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html#scopes-for-requesting-clinical-data SMART 2.2 clinical scopes
 */

/** Whose data a resource scope covers: the patient in context, the user's, or the client's own. */
export type ScopeContext = 'patient' | 'user' | 'system'

/** A SMART v2 permission letter: create, read, update, delete, search. */
export type ScopeInteraction = 'c' | 'r' | 'u' | 'd' | 's'

/** A resource scope after parsing. */
export interface ResourceScope {
  readonly context: ScopeContext
  /** A FHIR resource type, or `'*'` for every type (now and in the future). */
  readonly resourceType: string
  /** What the scope permits; v1 `read` is `r s`, `write` is `c u d`, `*` is all five. */
  readonly interactions: ReadonlySet<ScopeInteraction>
  /**
   * SMART v2 search-parameter restrictions (`?category=laboratory&…`), percent-decoded, in the
   * order written; a request must carry every one of them. Empty for none (and always for v1).
   */
  readonly query: readonly (readonly [string, string])[]
  /** 1 for `.read` / `.write` / `.*`, 2 for permission letters. */
  readonly version: 1 | 2
  /** The scope in canonical form (lower-case permissions, merged letters). */
  readonly text: string
}

/** The permission letters in the only order SMART v2 allows. */
export const interactionOrder: readonly ScopeInteraction[] = ['c', 'r', 'u', 'd', 's']

/** What each SMART v1 permission word means in v2 letters. */
export const v1Words: Readonly<Record<string, string>> = { read: 'rs', write: 'cud', '*': 'cruds' }

/** The letters of a set, in SMART's order (`cruds`). */
export function lettersOf(interactions: ReadonlySet<ScopeInteraction>): string {
  let letters = ''
  for (const letter of interactionOrder) if (interactions.has(letter)) letters += letter
  return letters
}

/** `?param=value&…` as written from decoded pairs (each part percent-encoded where needed). */
export function queryText(query: readonly (readonly [string, string])[]): string {
  if (query.length === 0) return ''
  return `?${query.map(([name, value]) => `${encodePart(name)}=${encodePart(value)}`).join('&')}`
}

// Keeps what scopes carry unencoded (`|`, `:`, `/`, `,`) readable; encodes what would break the
// grammar (`&`, `=`, `?`, space, `%`) or is not printable ASCII.
function encodePart(part: string): string {
  return part.replace(/[^\x21-\x7e]|[%&=?#+]/gu, (character) => encodeURIComponent(character))
}

/**
 * The canonical text of a resource scope: v2 letters, or the v1 word when the set is exactly one
 * (`read`, `write`, `*`); for v1, interactions no word names are written as letters.
 */
export function resourceScopeText(
  context: ScopeContext,
  resourceType: string,
  interactions: ReadonlySet<ScopeInteraction>,
  query: readonly (readonly [string, string])[],
  version: 1 | 2,
): string {
  const letters = lettersOf(interactions)
  const word =
    version === 1 ? Object.keys(v1Words).find((name) => v1Words[name] === letters) : undefined
  return `${context}/${resourceType}.${word ?? letters}${queryText(query)}`
}
