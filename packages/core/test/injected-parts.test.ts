/**
 * What a client makes of the parts a caller injects (DESIGN §6): its logger can never change an
 * operation's outcome, and its clock is checked at every reading.
 */
import { describe, expect, it } from 'vitest'
import { ConfigurationError, type Logger } from '../src/index.js'
import { checkedClock, failSafeLogger } from '../src/internal-checks.js'

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
    const safe = failSafeLogger({
      info: () => {
        calls += 1
        throw new Error('logger down')
      },
      warn: async () => {
        calls += 1
        throw new Error('logger down')
      },
      error: 'not a function' as never,
      get debug(): never {
        throw new Error('getter down')
      },
    })
    expect(() => {
      safe.info('a')
      safe.warn('b')
      safe.error('c')
      safe.debug?.('d')
    }).not.toThrow()
    expect(calls).toBe(2)
    // The rejected promise was observed: the suite's unhandled-rejection check would see it here.
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
})

describe('checkedClock', () => {
  const now = new Date('2026-11-25T08:00:00Z')

  it('gives the clock’s Date', () => {
    expect(checkedClock(() => now)()).toBe(now)
  })

  it.each([
    ['a number (Date.now)', () => now.getTime()],
    ['an Invalid Date', () => new Date(Number.NaN)],
    ['a string', () => now.toISOString()],
    [
      'a throw',
      () => {
        throw new Error('clock secret')
      },
    ],
  ])('refuses %s at each reading, with a ConfigurationError on now', (_name, clock) => {
    const read = checkedClock(clock as () => Date)
    let thrown: unknown
    try {
      read()
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConfigurationError)
    expect((thrown as ConfigurationError).invalidAttribute).toBe('now')
    expect((thrown as Error).message).not.toContain('clock secret')
  })
})
