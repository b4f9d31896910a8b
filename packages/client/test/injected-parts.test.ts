/**
 * What a client makes of the parts a caller injects (DESIGN §6): its clock is checked at every
 * reading (its logger is made fail-safe by core's `failSafeLogger`, tested in core). The operations
 * that meet them are in `internal/hardening/test/hostile-injected-parts.test.ts`.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { syncFailureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { checkedClock } from '../src/injected-parts.js'

describe('checkedClock', () => {
  const now = new Date('2026-11-25T08:00:00Z')

  it('gives the clock’s Date', () => {
    expect(checkedClock(() => now)()).toBe(now)
  })

  it.each([
    ['a number (Date.now)', () => now.getTime(), 'a number'],
    ['an Invalid Date', () => new Date(Number.NaN), 'an Invalid Date'],
    ['a string', () => now.toISOString(), 'a string'],
    [
      'a throw',
      () => {
        throw new Error('clock secret')
      },
      'undefined',
    ],
  ])('refuses %s at each reading, with a ConfigurationError on now', (_name, clock, kind) => {
    const read = checkedClock(clock as () => Date)
    for (const _reading of [1, 2]) {
      const error = syncFailureOf(read, ConfigurationError)
      expect(error.invalidAttribute).toBe('now')
      expect(error.invalidValue).toBe(kind)
      expect(error.message).toBe(`now must be a function returning a Date, not ${kind}`)
    }
  })
})
