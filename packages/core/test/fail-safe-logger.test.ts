/**
 * A caller's logger can never change an operation's outcome: `Client` wraps the logger it is
 * given, and the functional APIs that log diagnostics (SMART's token response and metadata
 * checks, UDAP discovery) wrap theirs. Operations that meet a failing logger are in
 * `internal/hardening/test/hostile-injected-parts.test.ts`.
 */
import type { Logger } from '@fhir-auth/core'
import { failSafeLogger } from '@fhir-auth/core/internal/checks'
import { describe, expect, it } from 'vitest'

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
