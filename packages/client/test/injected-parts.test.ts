/**
 * What a client makes of the parts a caller injects (DESIGN §6): its logger can never change an
 * operation's outcome, and its clock is checked at every reading. The operations that meet them
 * are in `internal/hardening/test/hostile-injected-parts.test.ts`.
 */
import { ConfigurationError, type Logger } from '@fhir-auth/core'
import { syncFailureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { checkedClock, failSafeLogger } from '../src/injected-parts.js'

describe('failSafeLogger', () => {
  it('passes each line on as given, looking the method up at each call', () => {
    const lines: unknown[][] = []
    const logger: Logger = {
      info: (...line) => lines.push(['info', ...line]),
      warn: (...line) => lines.push(['warn', ...line]),
      error: (...line) => lines.push(['error', ...line]),
    }
    const safe = failSafeLogger(logger)
    safe.info('one')
    safe.warn('two', { event: 'x' })
    // A logger that changes level replaces its methods (pino does).
    logger.info = (...line) => lines.push(['info again', ...line])
    safe.info('three')
    safe.error('four')
    safe.debug?.('dropped: the logger has no debug')
    expect(lines).toEqual([
      ['info', 'one'],
      ['warn', 'two', { event: 'x' }],
      ['info again', 'three'],
      ['error', 'four'],
    ])
  })

  it('ignores a method that throws, is not a function, or returns a promise that rejects', async () => {
    let calls = 0
    let observed = 0
    const safe = failSafeLogger({
      info: () => {
        calls += 1
        throw new Error('logger down')
      },
      warn: () => {
        calls += 1
        const rejected = Promise.reject(new Error('logger down'))
        return {
          // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose (an async logger's result)
          then: (onFulfilled: unknown, onRejected: (reason: unknown) => void) => {
            observed += 1
            return rejected.then(onFulfilled as never, onRejected)
          },
        } as never
      },
      error: 'not a function' as never,
      get debug(): never {
        throw new Error('getter down')
      },
    })
    safe.info('a')
    safe.warn('b')
    safe.error('c')
    safe.debug?.('d')
    expect(calls).toBe(2)
    expect(observed).toBe(1)
  })
})

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
