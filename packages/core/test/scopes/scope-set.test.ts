/**
 * What a parsed scope set means: `allows` (restrictions included), the v1 and v2 forms (and the
 * warning when v1 must widen), and `compare` by meaning; then `TokenSet.grantedScopes`.
 */
import { describe, expect, it } from 'vitest'
import type { Logger } from '../../src/logging/logger.js'
import { parseScopes } from '../../src/scopes.js'
import { TokenSet } from '../../src/tokens/token-set.js'

function recording(): Logger & { events: { message: string; event: unknown }[] } {
  const events: { message: string; event: unknown }[] = []
  return {
    events,
    info() {},
    error() {},
    warn: (message, fields) => void events.push({ message, event: fields?.event }),
  }
}

describe('ScopeSet.allows', () => {
  const set = parseScopes(
    'patient/Observation.rs?category=laboratory user/*.read system/Encounter.cud patient/Condition.rs?category=problem-list-item&clinical-status=active',
    { logger: recording() },
  )
  it.each([
    ['patient', 'Observation', 'r', { category: 'laboratory' }, true],
    ['patient', 'Observation', 's', { category: 'laboratory', code: '1234-5' }, true],
    ['patient', 'Observation', 's', { category: ['vital-signs', 'laboratory'] }, true],
    ['patient', 'Observation', 'r', {}, false],
    ['patient', 'Observation', 'r', { category: 'vital-signs' }, false],
    ['patient', 'Observation', 'c', { category: 'laboratory' }, false],
    ['user', 'Observation', 'r', {}, true],
    ['user', 'Patient', 's', {}, true],
    ['user', 'Patient', 'u', {}, false],
    ['system', 'Encounter', 'd', {}, true],
    ['system', 'Encounter', 'r', {}, false],
    ['system', 'Observation', 'r', {}, false],
    [
      'patient',
      'Condition',
      's',
      { category: 'problem-list-item', 'clinical-status': 'active' },
      true,
    ],
    ['patient', 'Condition', 's', { category: 'problem-list-item' }, false],
  ] as const)('%s/%s.%s %o → %s', (context, type, interaction, query, expected) => {
    expect(set.allows(context, type, interaction, query)).toBe(expected)
  })

  it('never throws on a request it does not expect', () => {
    for (const query of [null, 'category=laboratory', 42, { category: 42 }, { category: null }])
      expect(set.allows('patient', 'Observation', 'r', query as never)).toBe(false)
    expect(set.allows('patient', 'Observation', 'x' as never)).toBe(false)
  })

  it('a query member inherited from the prototype is not a restriction met', () => {
    const proto = Object.create({ category: 'laboratory' }) as Record<string, string>
    expect(set.allows('patient', 'Observation', 'r', proto)).toBe(false)
  })
})

describe('ScopeSet.toV2 and toV1', () => {
  it('v2 is exact, in the order written; non-resource scopes are kept', () => {
    const set = parseScopes(
      'launch openid patient/Observation.read user/*.write system/*.* profile',
    )
    expect(set.toV2()).toEqual([
      'launch',
      'openid',
      'patient/Observation.rs',
      'user/*.cud',
      'system/*.cruds',
      'profile',
    ])
  })

  it('v1 is exact for read, write and *, without a warning', () => {
    const logger = recording()
    const set = parseScopes('patient/Observation.rs user/*.cud system/*.cruds launch/patient', {
      logger,
    })
    expect(set.toV1()).toEqual([
      'patient/Observation.read',
      'user/*.write',
      'system/*.*',
      'launch/patient',
    ])
    expect(logger.events).toEqual([])
  })

  it.each([
    ['patient/Observation.r', 'patient/Observation.read'],
    ['patient/Observation.s', 'patient/Observation.read'],
    ['patient/Observation.c', 'patient/Observation.write'],
    ['patient/Observation.ud', 'patient/Observation.write'],
    ['patient/Observation.cr', 'patient/Observation.*'],
    ['patient/Observation.rs?category=laboratory', 'patient/Observation.read'],
  ])('v1 widens %s to the smallest v1 scope that covers it, %s, with a warning', (v2, v1) => {
    const logger = recording()
    expect(parseScopes(v2, { logger }).toV1()).toEqual([v1])
    expect(logger.events).toHaveLength(1)
    expect(logger.events[0]?.event).toBe('scope.widened')
    expect(logger.events[0]?.message).toContain(v2)
  })

  it('scopes that widen to the same v1 scope are sent once', () => {
    const set = parseScopes(
      'patient/Observation.rs?category=laboratory patient/Observation.rs?category=vital-signs',
      {
        logger: recording(),
      },
    )
    expect(set.toV1()).toEqual(['patient/Observation.read'])
  })

  it('toString is the canonical form', () => {
    expect(
      parseScopes('user/Patient.Read openid patient/Observation.s patient/Observation.r', {
        logger: recording(),
      }).toString(),
    ).toBe('user/Patient.read openid patient/Observation.rs')
  })
})

describe('ScopeSet.compare', () => {
  it.each([
    [
      'the same scopes',
      'patient/Observation.read openid',
      'patient/Observation.read openid',
      [],
      [],
    ],
    ['v1 read is v2 rs', 'patient/Observation.read', 'patient/Observation.rs', [], []],
    [
      'rs is r and s',
      'patient/Observation.rs',
      'patient/Observation.s patient/Observation.r',
      [],
      [],
    ],
    ['a wildcard covers a type', 'patient/Observation.r', 'patient/*.rs', [], ['patient/*.rs']],
    [
      'a type does not cover the wildcard',
      'patient/*.rs',
      'patient/Observation.rs',
      ['patient/*.rs'],
      [],
    ],
    [
      'part of the letters granted: the rest is missing',
      'patient/AllergyIntolerance.cruds',
      'patient/AllergyIntolerance.rs',
      ['patient/AllergyIntolerance.cud'],
      [],
    ],
    [
      'an unrestricted grant covers a restricted request',
      'patient/Observation.rs?category=laboratory',
      'patient/Observation.rs',
      [],
      ['patient/Observation.rs'],
    ],
    [
      'a restricted grant does not cover an unrestricted request',
      'patient/Observation.rs',
      'patient/Observation.rs?category=laboratory',
      ['patient/Observation.rs'],
      [],
    ],
    [
      'another context is another scope',
      'patient/Observation.rs',
      'user/Observation.rs',
      ['patient/Observation.rs'],
      ['user/Observation.rs'],
    ],
    [
      'launch and identity scopes by name',
      'launch/patient openid fhirUser offline_access',
      'openid online_access',
      ['launch/patient', 'fhirUser', 'offline_access'],
      ['online_access'],
    ],
    ['other scopes by text', 'profile __x', '__x', ['profile'], []],
    ['nothing granted', 'patient/*.rs openid', '', ['patient/*.rs', 'openid'], []],
  ] as const)('%s', (_name, asked, granted, missing, extra) => {
    expect(parseScopes(asked).compare(granted)).toEqual({ missing, extra })
    expect(parseScopes(asked).compare(parseScopes(granted))).toEqual({ missing, extra })
  })
})

describe('TokenSet.grantedScopes', () => {
  const obtainedAt = new Date('2026-11-28T12:00:00Z')
  it('is the granted scope read as SMART scopes', () => {
    const tokens = TokenSet.fromResponse(
      { access_token: 'at', scope: 'user/Patient.Read user/Patient.read launch/patient' },
      { obtainedAt, requestedScopes: ['patient/*.rs'], logger: recording() },
    )
    expect(tokens.grantedScopes.allows('user', 'Patient', 's')).toBe(true)
    expect(tokens.grantedScopes.launch.patient).toBe(true)
    expect(tokens.grantedScopes).toBe(tokens.grantedScopes)
  })

  it('is the requested scopes when the response has no scope (RFC 6749 §5.1)', () => {
    const tokens = TokenSet.fromResponse(
      { access_token: 'at' },
      { obtainedAt, requestedScopes: ['patient/*.rs', 'openid'] },
    )
    expect(tokens.grantedScopes.toV2()).toEqual(['patient/*.rs', 'openid'])
  })

  it('warns through the logger the set was made with', () => {
    const logger = recording()
    const tokens = TokenSet.fromResponse(
      { access_token: 'at', scope: 'user/Patient.Read' },
      { obtainedAt, logger },
    )
    expect(tokens.grantedScopes.resources).toHaveLength(1)
    expect(logger.events.map(({ event }) => event)).toEqual(['scope.letter_case'])
  })

  it('survives serialization', () => {
    const tokens = TokenSet.fromResponse(
      { access_token: 'at', scope: 'system/*.rs' },
      { obtainedAt },
    )
    expect(
      TokenSet.deserialize(tokens.serialize())?.grantedScopes.allows('system', 'Group', 's'),
    ).toBe(true)
  })
})
