/**
 * The store guard of the backend token cache (ADR 0010): every way a store can misbehave — it
 * throws, rejects, hangs, answers late or answers with something the contract does not allow —
 * becomes one "failed" value within the limit, is logged once per outage without the store's
 * message, and leaves the store alone for a while afterwards.
 */
import { type KeyValueStore, type Logger, memoryStore } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { GuardedStore, storeFailed } from '../src/tokens/guarded-store.js'

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = []
  return { warnings, info() {}, error() {}, warn: (message: string) => void warnings.push(message) }
}

/** A store whose every operation is `answer`, counting the calls that reach it. */
function scriptedStore(answer: () => unknown) {
  const calls: string[] = []
  const operation =
    (name: string) =>
    (..._args: unknown[]) => {
      calls.push(name)
      return answer()
    }
  const store = {
    get: operation('get'),
    set: operation('set'),
    delete: operation('delete'),
    setIfAbsent: operation('setIfAbsent'),
  } as unknown as KeyValueStore
  return { store, calls }
}

function guarded(store: KeyValueStore, logger: Logger, operationLimitMs = 50, retryAfterMs = 0) {
  return new GuardedStore({ store, logger, operationLimitMs, retryAfterMs })
}

const later = (ms: number, value: unknown) =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms))

describe('GuardedStore', () => {
  it('passes a healthy store through: text, nothing, booleans', async () => {
    const store = memoryStore()
    const logger = recordingLogger()
    const guard = guarded(store, logger)
    expect(await guard.get('fhir-auth:k')).toBeUndefined()
    expect(await guard.setIfAbsent('fhir-auth:k', 'v', 60)).toBe(true)
    expect(await guard.setIfAbsent('fhir-auth:k', 'w', 60)).toBe(false)
    expect(await guard.get('fhir-auth:k')).toBe('v')
    await guard.set('fhir-auth:k', 'x', 60)
    expect(await guard.get('fhir-auth:k')).toBe('x')
    await guard.delete('fhir-auth:k')
    expect(await guard.get('fhir-auth:k')).toBeUndefined()
    expect(logger.warnings).toEqual([])
  })

  it('reads null as nothing', async () => {
    const guard = guarded(scriptedStore(async () => null).store, recordingLogger())
    expect(await guard.get('k')).toBeUndefined()
  })

  const misbehaviours: ReadonlyArray<readonly [string, () => unknown, RegExp]> = [
    [
      'throws synchronously',
      () => {
        throw new Error('sync failure quoting secret-value-1')
      },
      /failed get \(Error\)/,
    ],
    [
      'rejects',
      async () => {
        throw new TypeError('connection refused, value secret-value-1')
      },
      /failed get \(TypeError\)/,
    ],
    ['rejects with a non-error', () => Promise.reject('secret-value-1'), /failed get \(string\)/],
    ['never answers', () => new Promise(() => {}), /did not answer get in time/],
    ['answers after the limit', () => later(200, 'late'), /did not answer get in time/],
    ['answers get with a number', async () => 42, /answered get with number/],
    [
      'answers get with an object',
      async () => ({ value: 'secret-value-1' }),
      /answered get with object/,
    ],
    ['answers get with an array', async () => ['secret-value-1'], /answered get with an array/],
  ]
  for (const [name, answer, warning] of misbehaviours) {
    it(`a store that ${name}: failed, one warning without the store's words`, async () => {
      const logger = recordingLogger()
      const guard = guarded(scriptedStore(answer).store, logger)
      expect(await guard.get('k')).toBe(storeFailed)
      expect(await guard.get('k')).toBe(storeFailed)
      expect(logger.warnings).toHaveLength(1)
      expect(logger.warnings[0]).toMatch(warning)
      expect(logger.warnings[0]).not.toContain('secret-value-1')
    })
  }

  it('a setIfAbsent that answers anything but a boolean is a failure, not a lost race', async () => {
    for (const answer of ['OK', 1, null, undefined, {}]) {
      const logger = recordingLogger()
      const guard = guarded(scriptedStore(async () => answer).store, logger)
      expect(await guard.setIfAbsent('k', 'v', 1)).toBe(storeFailed)
      expect(logger.warnings[0]).toMatch(/answered setIfAbsent with/)
    }
  })

  it('after a failure the store is left alone for retryAfterMs, then tried again', async () => {
    let healthy = false
    const { store, calls } = scriptedStore(() =>
      healthy ? Promise.resolve('v') : new Promise(() => {}),
    )
    const logger = recordingLogger()
    const guard = guarded(store, logger, 30, 300)
    expect(await guard.get('k')).toBe(storeFailed)
    expect(calls).toHaveLength(1)
    healthy = true
    for (let i = 0; i < 20; i++) expect(await guard.get('k')).toBe(storeFailed)
    expect(calls).toHaveLength(1) // not asked while it counts as down
    await later(320, undefined)
    expect(await guard.get('k')).toBe('v')
    expect(calls).toHaveLength(2)
    expect(logger.warnings).toHaveLength(1)
  })

  it('logs again for a new outage after the store answered', async () => {
    let healthy = true
    const logger = recordingLogger()
    const guard = guarded(
      scriptedStore(async () => {
        if (!healthy) throw new Error('down')
        return 'v'
      }).store,
      logger,
    )
    healthy = false
    await guard.get('k')
    healthy = true
    expect(await guard.get('k')).toBe('v')
    healthy = false
    await guard.get('k')
    expect(logger.warnings).toHaveLength(2)
  })

  it('a promise that rejects after the limit is observed: no unhandled rejection', async () => {
    const unhandled: unknown[] = []
    const listener = (reason: unknown) => void unhandled.push(reason)
    process.on('unhandledRejection', listener)
    try {
      const answer = () =>
        new Promise((_, reject) => setTimeout(() => reject(new Error('late failure')), 80))
      const guard = guarded(scriptedStore(answer).store, recordingLogger(), 20)
      expect(await guard.get('k')).toBe(storeFailed)
      await later(150, undefined)
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', listener)
    }
  })
})
