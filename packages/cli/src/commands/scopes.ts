import { type Logger, parseScopes, type ResourceScope, type ScopeSet } from '@fhir-auth/client'
import { type ParsedFlags, usageError } from '../args.js'
import { formatTable } from '../output/human-format.js'
import type { Command, CommandContext } from './command.js'

/** The words of SMART's permission letters, in their order. */
const interactionNames: Readonly<Record<string, string>> = {
  c: 'create',
  r: 'read',
  u: 'update',
  d: 'delete',
  s: 'search',
}

/** One row of `scopes explain`: a scope as written and what it means. */
export interface ScopeExplanation {
  readonly scope: string
  /** `resource`, `launch`, `identity`, `refresh`, `unknown` or `malformed`. */
  readonly kind: string
  readonly context: string | undefined
  readonly resourceType: string | undefined
  /** The permission letters (`rs`). */
  readonly interactions: string | undefined
  readonly restrictions: readonly (readonly [string, string])[]
  readonly v1: string
  /** True when v1 cannot express the scope exactly and asks for a wider one. */
  readonly v1Widens: boolean
  readonly v2: string
}

/**
 * `fhir-auth scopes explain <scope>…`: each SMART scope read as data — context, resource type,
 * interactions, search restrictions, and its v1 and v2 forms — one row per scope, unknown and
 * malformed scopes in rows of their own, marked so. Reads no server; exits 0.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html
 */
export const scopesCommand: Command = {
  name: 'scopes',
  summary: 'explain SMART scopes: context, resource, interactions, restrictions, v1 and v2 forms',
  synopsis: ['explain <scope>…'],
  positionals: [
    { name: 'action', description: 'explain', isRequired: true },
    {
      name: 'scope',
      description: 'one or more scopes (an argument may hold several, separated by spaces)',
      isRequired: true,
      isVariadic: true,
    },
  ],
  options: [],
  notes: [
    'Prints one row per scope. v1 cannot express permission letters such as r alone or search restrictions: its form is then the smallest v1 scope that covers the scope, marked (wider). Unknown scopes are kept as text; malformed resource scopes (letters out of order such as .sr, repeated letters, a ? without parameters…) are marked malformed. --json prints an array of { scope, kind, context, resourceType, interactions, restrictions, v1, v1Widens, v2 }.',
    "Example: fhir-auth scopes explain 'patient/Observation.rs?category=laboratory' user/*.read launch/patient openid",
  ],
  async execute(flags: ParsedFlags, context: CommandContext): Promise<void> {
    const [action, ...written] = flags.positionals
    if (action !== 'explain')
      throw usageError('--', `unknown scopes action ${JSON.stringify(action ?? '')}: use explain`)
    const scopes = written.flatMap((argument) => argument.split(/\s+/u)).filter((s) => s !== '')
    if (scopes.length === 0) throw usageError('--', 'scopes explain needs at least one scope')
    const rows = scopes.map(explainScope)
    context.output.result(rows, () => formatTable(tableHeaders, rows.map(tableRow)))
  },
}

const tableHeaders = [
  'scope',
  'kind',
  'context',
  'resource',
  'interactions',
  'restrictions',
  'v1',
  'v2',
]

function tableRow(row: ScopeExplanation): string[] {
  return [
    row.scope,
    row.kind,
    row.context ?? '-',
    row.resourceType ?? '-',
    row.interactions === undefined
      ? '-'
      : `${row.interactions} (${[...row.interactions].map((letter) => interactionNames[letter]).join(', ')})`,
    row.restrictions.length === 0 ? '-' : row.restrictions.map(([n, v]) => `${n}=${v}`).join(' & '),
    row.v1Widens ? `${row.v1} (wider)` : row.v1,
    row.v2,
  ]
}

/** One scope, parsed on its own so that its warnings are its own. */
export function explainScope(scope: string): ScopeExplanation {
  const events: string[] = []
  const logger: Logger = {
    info() {},
    error() {},
    warn: (_message, fields) => void events.push(String(fields?.event)),
  }
  const set = parseScopes(scope, { logger })
  const [resource] = set.resources
  const [v1] = set.toV1()
  const [v2] = set.toV2()
  return {
    scope,
    kind: kindOf(set, resource, events),
    context: resource?.context,
    resourceType: resource?.resourceType,
    interactions: resource === undefined ? undefined : [...resource.interactions].join(''),
    restrictions: resource?.query ?? [],
    v1: v1 ?? scope,
    v1Widens: events.includes('scope.widened'),
    v2: v2 ?? scope,
  }
}

function kindOf(set: ScopeSet, resource: ResourceScope | undefined, events: readonly string[]) {
  if (resource !== undefined) return 'resource'
  if (events.includes('scope.malformed')) return 'malformed'
  const { launch } = set
  if (launch.ehr || launch.patient || launch.encounter || launch.other.length > 0) return 'launch'
  if (set.openid || set.fhirUser) return 'identity'
  if (set.offlineAccess || set.onlineAccess) return 'refresh'
  return 'unknown'
}
