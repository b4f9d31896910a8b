/**
 * Translations keep meaning, checked on generated scope sets and requests: the v2 form of a set
 * allows exactly what the set allows (v1 words are exact in v2), the v1 form never allows less,
 * and a set compared with its own v2 form finds nothing missing or extra.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Logger } from '../../src/logging/logger.js'
import { parseScopes, type ScopeInteraction, type ScopeQuery } from '../../src/scopes.js'

const runs = { numRuns: 2_000, seed: 20261129 }
const silent: Logger = { info() {}, warn() {}, error() {} }
const contexts = ['patient', 'user', 'system'] as const
const types = ['Observation', 'Patient', 'Condition', '*'] as const
const letters = ['c', 'r', 'u', 'd', 's'] as const
const parameters = ['category', 'code', 'status'] as const
const values = ['laboratory', 'vital-signs', 'a|b', 'x&y', 'final'] as const

const query = fc.uniqueArray(fc.tuple(fc.constantFrom(...parameters), fc.constantFrom(...values)), {
  maxLength: 2,
  selector: ([name]) => name,
})
const encoded = (value: string) => value.replace(/[&=%]/gu, (c) => encodeURIComponent(c))

const v2Scope = fc
  .tuple(
    fc.constantFrom(...contexts),
    fc.constantFrom(...types),
    fc.subarray([...letters], { minLength: 1 }),
    query,
  )
  .map(
    ([context, type, chosen, pairs]) =>
      `${context}/${type}.${chosen.join('')}${pairs.length > 0 ? `?${pairs.map(([n, v]) => `${n}=${encoded(v)}`).join('&')}` : ''}`,
  )
const v1Scope = fc
  .tuple(
    fc.constantFrom(...contexts),
    fc.constantFrom(...types),
    fc.constantFrom('read', 'write', '*', 'Read'),
  )
  .map(([context, type, word]) => `${context}/${type}.${word}`)
const other = fc.constantFrom(
  'openid',
  'fhirUser',
  'launch',
  'launch/patient',
  'offline_access',
  'profile',
  '__x',
)

const request = fc.record({
  context: fc.constantFrom(...contexts),
  type: fc.constantFrom('Observation', 'Patient', 'Condition', 'Encounter'),
  interaction: fc.constantFrom(...letters),
  query: fc.dictionary(
    fc.constantFrom(...parameters),
    fc.oneof(fc.constantFrom(...values), fc.array(fc.constantFrom(...values), { maxLength: 2 })),
  ),
})

const allows = (scopes: string | readonly string[], r: Req) =>
  parseScopes(scopes, { logger: silent }).allows(r.context, r.type, r.interaction, r.query)

interface Req {
  readonly context: (typeof contexts)[number]
  readonly type: string
  readonly interaction: ScopeInteraction
  readonly query: ScopeQuery
}

describe('scope translations', () => {
  it('parse(toV2(s)) allows exactly what s allows, for v2 input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(v2Scope, other), { maxLength: 6 }),
        fc.array(request, { minLength: 1, maxLength: 8 }),
        (scopes, requests) => {
          const v2 = parseScopes(scopes, { logger: silent }).toV2()
          for (const r of requests) expect(allows(v2, r)).toBe(allows(scopes, r))
        },
      ),
      runs,
    )
  })

  it('parse(toV2(s)) allows exactly what s allows, for v1 and mixed input (never less)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(v1Scope, v2Scope, other), { maxLength: 6 }),
        fc.array(request, { minLength: 1, maxLength: 8 }),
        (scopes, requests) => {
          const v2 = parseScopes(scopes, { logger: silent }).toV2()
          for (const r of requests) expect(allows(v2, r)).toBe(allows(scopes, r))
        },
      ),
      runs,
    )
  })

  it('parse(toV1(s)) never allows less than s', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(v1Scope, v2Scope, other), { maxLength: 6 }),
        fc.array(request, { minLength: 1, maxLength: 8 }),
        (scopes, requests) => {
          const v1 = parseScopes(scopes, { logger: silent }).toV1()
          for (const r of requests) if (allows(scopes, r)) expect(allows(v1, r)).toBe(true)
        },
      ),
      runs,
    )
  })

  it('a set and its v2 form compare equal, both ways', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(v1Scope, v2Scope, other), { maxLength: 6 }), (scopes) => {
        const set = parseScopes(scopes, { logger: silent })
        const v2 = parseScopes(set.toV2(), { logger: silent })
        expect(set.compare(v2)).toEqual({ missing: [], extra: [] })
        expect(v2.compare(set)).toEqual({ missing: [], extra: [] })
      }),
      runs,
    )
  })

  it('what compare says is missing is exactly what the grant does not allow', () => {
    fc.assert(
      fc.property(
        fc.array(v2Scope, { maxLength: 4 }),
        fc.array(v2Scope, { maxLength: 4 }),
        fc.array(request, { minLength: 1, maxLength: 8 }),
        (asked, granted, requests) => {
          const { missing } = parseScopes(asked, { logger: silent }).compare(granted)
          for (const r of requests) {
            // A request the asked scopes allow and the grant does not is allowed by a missing scope.
            if (allows(asked, r) && !allows(granted, r)) expect(allows(missing, r)).toBe(true)
          }
        },
      ),
      runs,
    )
  })
})
