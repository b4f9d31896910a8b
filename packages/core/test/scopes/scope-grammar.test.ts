/**
 * The SMART scope grammar, table-driven: every scope the SMART App Launch 2.2.0 page "Scopes and
 * Launch Context" gives as an example, then malformed input. Each row says what `parseScopes`
 * reads: resource scopes as `context/type.letters?query` (v1 or v2), launch scopes, the identity
 * and refresh flags, and the scopes kept as text (`other`) — with or without a warning.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html
 */
import { describe, expect, it } from 'vitest'
import type { Logger } from '../../src/logging/logger.js'
import { parseScopes, type ScopeSet } from '../../src/scopes.js'

interface Row {
  readonly scopes: string
  /** Each resource scope: `context/type.letters@version` and its query as `name=value` joined by `&`. */
  readonly resources?: readonly string[]
  readonly launch?: readonly string[]
  readonly flags?: readonly ('openid' | 'fhirUser' | 'offlineAccess' | 'onlineAccess')[]
  readonly other?: readonly string[]
  /** The warning events expected (none when absent). */
  readonly warns?: readonly string[]
}

function parsed(scopes: string) {
  const events: string[] = []
  const logger: Logger = {
    info() {},
    error() {},
    warn: (_message, fields) => void events.push(String(fields?.event)),
  }
  return { set: parseScopes(scopes, { logger }), events }
}

function summary(set: ScopeSet) {
  return {
    resources: set.resources.map(
      (scope) =>
        `${scope.context}/${scope.resourceType}.${[...scope.interactions].join('')}@${scope.version}${
          scope.query.length > 0 ? `?${scope.query.map(([n, v]) => `${n}=${v}`).join('&')}` : ''
        }`,
    ),
    launch: [
      ...(set.launch.ehr ? ['launch'] : []),
      ...(set.launch.patient ? ['launch/patient'] : []),
      ...(set.launch.encounter ? ['launch/encounter'] : []),
      ...set.launch.other,
    ],
    flags: (['openid', 'fhirUser', 'offlineAccess', 'onlineAccess'] as const).filter(
      (flag) => set[flag],
    ),
    other: [...set.other],
  }
}

function check(row: Row) {
  const { set, events } = parsed(row.scopes)
  expect(summary(set)).toEqual({
    resources: row.resources ?? [],
    launch: row.launch ?? [],
    flags: row.flags ?? [],
    other: row.other ?? [],
  })
  expect(events).toEqual(row.warns ?? [])
}

const lab = 'http://terminology.hl7.org/CodeSystem/observation-category|laboratory'

describe('parseScopes: the examples of the SMART 2.2.0 scopes page', () => {
  const rows: [string, Row][] = [
    // Quick start
    ['quick start: patient/*.rs', { scopes: 'patient/*.rs', resources: ['patient/*.rs@2'] }],
    ['quick start: user/*.cruds', { scopes: 'user/*.cruds', resources: ['user/*.cruds@2'] }],
    ['quick start: openid fhirUser', { scopes: 'openid fhirUser', flags: ['openid', 'fhirUser'] }],
    ['quick start: launch', { scopes: 'launch', launch: ['launch'] }],
    ['quick start: launch/patient', { scopes: 'launch/patient', launch: ['launch/patient'] }],
    ['quick start: offline_access', { scopes: 'offline_access', flags: ['offlineAccess'] }],
    ['quick start: online_access', { scopes: 'online_access', flags: ['onlineAccess'] }],
    // Permission letters
    [
      'create and update: .cu',
      { scopes: 'patient/Observation.cu', resources: ['patient/Observation.cu@2'] },
    ],
    [
      'read and search: .rs',
      { scopes: 'patient/Observation.rs', resources: ['patient/Observation.rs@2'] },
    ],
    // v1 semantics in v2
    [
      'v1 .read is v2 .rs',
      { scopes: 'patient/Observation.read', resources: ['patient/Observation.rs@1'] },
    ],
    [
      'v1 .write is v2 .cud',
      { scopes: 'patient/Observation.write', resources: ['patient/Observation.cud@1'] },
    ],
    [
      'v1 .* is v2 .cruds',
      { scopes: 'patient/Observation.*', resources: ['patient/Observation.cruds@1'] },
    ],
    ['v1 user/*.* (SMART 1.0 quick start)', { scopes: 'user/*.*', resources: ['user/*.cruds@1'] }],
    // Undefined or out-of-order interactions
    [
      "the page's undefined request .dus",
      {
        scopes: 'patient/Observation.dus',
        other: ['patient/Observation.dus'],
        warns: ['scope.malformed'],
      },
    ],
    // Scope equivalence
    [
      'Observation.r Observation.s merges into Observation.rs',
      {
        scopes: 'patient/Observation.r patient/Observation.s',
        resources: ['patient/Observation.rs@2'],
      },
    ],
    // Finer-grained constraints
    [
      'category-restricted (laboratory)',
      {
        scopes: `patient/Observation.rs?category=${lab}`,
        resources: [`patient/Observation.rs@2?category=${lab}`],
      },
    ],
    [
      'experimental: search modifier code:in',
      {
        scopes:
          'patient/Observation.rs?code:in=http://valueset.example.org/ValueSet/diabetes-codes',
        resources: [
          'patient/Observation.rs@2?code:in=http://valueset.example.org/ValueSet/diabetes-codes',
        ],
      },
    ],
    [
      'experimental: chained parameter patient.birthdate',
      {
        scopes: 'patient/Observation.rs?patient.birthdate=1990',
        resources: ['patient/Observation.rs@2?patient.birthdate=1990'],
      },
    ],
    // Patient-specific
    [
      'demographics: patient/Patient.r',
      { scopes: 'patient/Patient.r', resources: ['patient/Patient.r@2'] },
    ],
    [
      'add readings: patient/Observation.c',
      { scopes: 'patient/Observation.c', resources: ['patient/Observation.c@2'] },
    ],
    ['all data: patient/*.cruds', { scopes: 'patient/*.cruds', resources: ['patient/*.cruds@2'] }],
    // User-level
    [
      'lab feed: user/Observation.rs',
      { scopes: 'user/Observation.rs', resources: ['user/Observation.rs@2'] },
    ],
    [
      'appointments: user/Appointment.cruds',
      { scopes: 'user/Appointment.cruds', resources: ['user/Appointment.cruds@2'] },
    ],
    [
      'select a patient: user/Patient.rs',
      { scopes: 'user/Patient.rs', resources: ['user/Patient.rs@2'] },
    ],
    // System-level
    [
      'alert engine: system/Observation.rs',
      { scopes: 'system/Observation.rs', resources: ['system/Observation.rs@2'] },
    ],
    ['bulk export: system/*.rs', { scopes: 'system/*.rs', resources: ['system/*.rs@2'] }],
    [
      'ADT bridge: system/Encounter.cud',
      { scopes: 'system/Encounter.cud', resources: ['system/Encounter.cud@2'] },
    ],
    // Wildcard scopes: what a server may grant for patient/AllergyIntolerance.cruds
    [
      'granted as asked',
      {
        scopes: 'patient/AllergyIntolerance.cruds',
        resources: ['patient/AllergyIntolerance.cruds@2'],
      },
    ],
    [
      'granted as two scopes (.rs and .cud) merge',
      {
        scopes: 'patient/AllergyIntolerance.rs patient/AllergyIntolerance.cud',
        resources: ['patient/AllergyIntolerance.cruds@2'],
      },
    ],
    [
      'granted read only',
      { scopes: 'patient/AllergyIntolerance.rs', resources: ['patient/AllergyIntolerance.rs@2'] },
    ],
    [
      'granted write only',
      { scopes: 'patient/AllergyIntolerance.cud', resources: ['patient/AllergyIntolerance.cud@2'] },
    ],
    ['granted nothing: the empty scope string', { scopes: '' }],
    // Context data
    [
      'EHR launch with hints',
      {
        scopes: 'launch launch/patient launch/encounter',
        launch: ['launch', 'launch/patient', 'launch/encounter'],
      },
    ],
    [
      'other context, lower case',
      { scopes: 'launch/diagnosticreport', launch: ['launch/diagnosticreport'] },
    ],
    [
      'standalone ImagingStudy context',
      { scopes: 'launch/imagingstudy', launch: ['launch/imagingstudy'] },
    ],
    // Identity data
    [
      'openid with the legacy profile scope',
      { scopes: 'openid profile', flags: ['openid'], other: ['profile'] },
    ],
    // Extensibility
    [
      'extension scope as a full URI',
      {
        scopes: 'https://ehr.example.org/scopes/profilePhoto.manage',
        other: ['https://ehr.example.org/scopes/profilePhoto.manage'],
      },
    ],
    [
      "the page's request with a __ extension scope",
      {
        scopes: 'launch/patient patient/*.rs __profilePhoto.manage',
        resources: ['patient/*.rs@2'],
        launch: ['launch/patient'],
        other: ['__profilePhoto.manage'],
      },
    ],
    // Appendix: URI representation
    ['appendix: patient/*.r', { scopes: 'patient/*.r', resources: ['patient/*.r@2'] }],
    [
      'appendix: the URI form is not a scope to request',
      {
        scopes: 'http://smarthealthit.org/fhir/scopes/patient/*.r',
        other: ['http://smarthealthit.org/fhir/scopes/patient/*.r'],
      },
    ],
    // The grammar's own example (DESIGN of this library)
    [
      'a whole launch request',
      {
        scopes:
          'patient/Observation.rs?category=laboratory user/*.read launch/patient openid fhirUser offline_access',
        resources: ['patient/Observation.rs@2?category=laboratory', 'user/*.rs@1'],
        launch: ['launch/patient'],
        flags: ['openid', 'fhirUser', 'offlineAccess'],
      },
    ],
  ]
  it.each(rows)('%s', (_name, row) => check(row))
})

describe('parseScopes: servers that deviate', () => {
  const rows: [string, Row][] = [
    [
      "Epic's mixed-case duplicates merge, with one warning",
      {
        scopes: 'user/Patient.Read user/Patient.read',
        resources: ['user/Patient.rs@1'],
        warns: ['scope.letter_case'],
      },
    ],
    [
      'upper-case letters',
      {
        scopes: 'patient/Observation.RS',
        resources: ['patient/Observation.rs@2'],
        warns: ['scope.letter_case'],
      },
    ],
    [
      'a v1 and a v2 scope for the same type stay apart',
      {
        scopes: 'patient/Observation.read patient/Observation.cud',
        resources: ['patient/Observation.rs@1', 'patient/Observation.cud@2'],
      },
    ],
    [
      'the same letters with different restrictions stay apart',
      {
        scopes:
          'patient/Observation.rs?category=laboratory patient/Observation.rs?category=vital-signs',
        resources: [
          'patient/Observation.rs@2?category=laboratory',
          'patient/Observation.rs@2?category=vital-signs',
        ],
      },
    ],
    [
      'several parameters',
      {
        scopes: 'patient/Observation.rs?category=laboratory&status=final',
        resources: ['patient/Observation.rs@2?category=laboratory&status=final'],
      },
    ],
    [
      'tabs and repeated spaces separate scopes',
      { scopes: ' openid \t fhirUser  ', flags: ['openid', 'fhirUser'] },
    ],
    [
      'a context in another case is no SMART scope',
      { scopes: 'Patient/Observation.rs', other: ['Patient/Observation.rs'] },
    ],
    ['unknown context', { scopes: 'group/Observation.rs', other: ['group/Observation.rs'] }],
    [
      'duplicates of other scopes merge',
      { scopes: 'profile profile launch/x launch/x', other: ['profile'], launch: ['launch/x'] },
    ],
  ]
  it.each(rows)('%s', (_name, row) => check(row))
})

describe('parseScopes: malformed resource scopes land in other, with a warning', () => {
  const malformed = [
    ['empty resource type', 'patient/.rs'],
    ['empty permissions', 'patient/Observation.'],
    ['no permissions at all', 'patient/Observation'],
    ['empty resource type and permissions', 'patient/.'],
    ['double slash', 'patient//Observation.rs'],
    ['unknown letter', 'patient/Observation.x'],
    ['unknown letter after valid ones', 'patient/Observation.rsx'],
    ['a v1 word with a letter', 'patient/Observation.reads'],
    ['letters out of order: .sr', 'patient/Observation.sr'],
    ['letters out of order: .rc', 'patient/Observation.rc'],
    ['repeated letter', 'patient/Observation.rr'],
    ['repeated letter among others', 'patient/Observation.crrs'],
    ['six letters', 'patient/Observation.crudss'],
    ['? without parameters', 'patient/Observation.rs?'],
    ['parameter without =', 'patient/Observation.rs?category'],
    ['parameter without a name', 'patient/Observation.rs?=laboratory'],
    ['parameter name that is no search parameter', 'patient/Observation.rs?cat%20egory=x'],
    ['a second ? as a name', 'patient/Observation.rs??category=x'],
    ['parameter without a value', 'patient/Observation.rs?category='],
    [
      'empty segment between parameters',
      'patient/Observation.rs?category=laboratory&&status=final',
    ],
    ['trailing &', 'patient/Observation.rs?category=laboratory&'],
    ['leading &', 'patient/Observation.rs?&category=laboratory'],
    ['bad percent-encoding', 'patient/Observation.rs?category=%ZZ'],
    ['truncated percent-encoding', 'patient/Observation.rs?category=lab%E0%A4%A'],
    ['restrictions on a v1 scope', 'patient/Observation.read?category=laboratory'],
    ['lower-case resource type', 'patient/observation.rs'],
    ['resource type with a hyphen', 'patient/Observation-x.rs'],
    ['dot in the resource type', 'patient/Obs.ervation.rs'],
  ] as const
  it.each(malformed)('%s: %s', (_name, scope) => {
    check({
      scopes: `${scope} openid`,
      other: [scope],
      flags: ['openid'],
      warns: ['scope.malformed'],
    })
  })

  it('reports every malformed scope in one warning that names a few, cut short', () => {
    const messages: { message: string; fields: unknown }[] = []
    const logger: Logger = {
      info() {},
      error() {},
      warn: (message, fields) => void messages.push({ message, fields }),
    }
    const long = `patient/${'A'.repeat(500)}.x`
    parseScopes(
      ['patient/a.rs', 'patient/b.rs', long, 'patient/c.rs', 'patient/d.rs', 'patient/e.rs'],
      { logger },
    )
    expect(messages).toHaveLength(1)
    expect(messages[0]?.fields).toEqual({ event: 'scope.malformed', count: 6 })
    expect(messages[0]?.message).toContain('and 1 more')
    expect(messages[0]?.message.length).toBeLessThan(400)
  })

  it('launch/ without a name, and launch/ with a path, are kept as text', () => {
    check({ scopes: 'launch/ launch/a/b', other: ['launch/', 'launch/a/b'] })
  })
})

describe('parseScopes: percent-encoded values', () => {
  it('decodes parameter names and values, and writes them back encoded only where needed', () => {
    const set = parseScopes('patient/Observation.rs?category=laboratory%7Cvital&code%3Ain=a%26b', {
      logger: silent(),
    })
    expect(set.resources[0]?.query).toEqual([
      ['category', 'laboratory|vital'],
      ['code:in', 'a&b'],
    ])
    expect(set.resources[0]?.text).toBe(
      'patient/Observation.rs?category=laboratory|vital&code:in=a%26b',
    )
    expect(
      set.allows('patient', 'Observation', 'r', { category: 'laboratory|vital', 'code:in': 'a&b' }),
    ).toBe(true)
  })
})

describe('parseScopes: input it does not expect never throws', () => {
  it.each([
    ['a number', 42],
    ['undefined', undefined],
    ['null', null],
    ['an object', { scope: 'openid' }],
    ['a list with non-strings', ['openid', 1, null]],
  ])('%s', (_name, input) => {
    const set = parseScopes(input as unknown as string, { logger: silent() })
    expect(set.toString()).toBe(Array.isArray(input) ? 'openid' : '')
  })

  it('a throwing logger loses its line and nothing else', () => {
    const logger: Logger = {
      info() {},
      error() {},
      warn: () => {
        throw new Error('logger down')
      },
    }
    expect(parseScopes('patient/X.sr patient/Y.Read', { logger }).other).toEqual(['patient/X.sr'])
  })

  it('warns on the console without a logger', () => {
    const original = console.warn
    const lines: unknown[][] = []
    console.warn = (...args: unknown[]) => void lines.push(args)
    try {
      parseScopes('patient/X.sr')
    } finally {
      console.warn = original
    }
    expect(lines).toHaveLength(1)
    expect(String(lines[0]?.[0])).toContain('patient/X.sr')
  })
})

describe('parseScopes: huge input', () => {
  // Each of these would take quadratic or exponential time with a backtracking pattern or a
  // rescanning loop; linear parsing finishes them well within the test's time limit.
  it('one scope of a million characters', () => {
    const set = parseScopes(`patient/${'A'.repeat(1_000_000)}!.rs`, { logger: silent() })
    expect(set.other).toHaveLength(1)
  })

  it('a query of a million separators', () => {
    const set = parseScopes(`patient/Observation.rs?${'a=b&'.repeat(250_000)}a=b`, {
      logger: silent(),
    })
    expect(set.resources[0]?.query).toHaveLength(250_001)
  })

  it('a query of a million question marks and equals signs', () => {
    const set = parseScopes(`patient/Observation.rs?${'?='.repeat(500_000)}`, { logger: silent() })
    expect(set.other).toHaveLength(1)
  })

  it('a hundred thousand scopes, duplicates merged', () => {
    const scopes = Array.from(
      { length: 100_000 },
      (_, i) => `patient/Type${i % 1000}.r patient/Type${i % 1000}.s`,
    )
    const set = parseScopes(scopes.join(' '), { logger: silent() })
    expect(set.resources).toHaveLength(1000)
    expect(set.resources.every((scope) => scope.text.endsWith('.rs'))).toBe(true)
  })
})

function silent(): Logger {
  return { info() {}, warn() {}, error() {} }
}
