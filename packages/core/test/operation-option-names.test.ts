/**
 * The two helpers behind issue 24's findings 14 and 15: `readOptions` refusing unknown operation
 * options ("unknown option", with the valid names) from lists `optionNames` derives from a type,
 * and `waitUnlessAborted`, which lets a caller's signal end the wait for code still loading.
 */
import { HttpError } from '@fhir-auth/core'
import { optionNames, readOptions, waitUnlessAborted } from '@fhir-auth/core/internal/checks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configurationError } from './support/configuration-error.js'

interface ExampleOptions {
  readonly scopes?: readonly string[]
  readonly signal?: AbortSignal
}

describe('optionNames and readOptions with noun "option"', () => {
  const names = optionNames<ExampleOptions>({ scopes: 1, signal: 1 })

  it('lists every member of the type, frozen', () => {
    expect(names).toEqual(['scopes', 'signal'])
    expect(Object.isFrozen(names)).toBe(true)
  })

  it('refuses an unknown name as an unknown option, listing the valid ones', () => {
    const error = configurationError(() =>
      readOptions({ scope: ['x'] } as ExampleOptions, 'requestBackendToken', {
        known: names,
        noun: 'option',
      }),
    )
    expect(error.invalidAttribute).toBe('scope')
    expect(error.validValues).toEqual(['scopes', 'signal'])
    expect(error.message).toBe(
      'unknown option "scope" in options of requestBackendToken; valid options: scopes, signal',
    )
  })

  it('keeps "unknown attribute" for configuration and Client options (the default)', () => {
    const error = configurationError(() =>
      readOptions({ scope: ['x'] } as ExampleOptions, 'ClientConfig', { known: names }),
    )
    expect(error.message).toBe(
      'unknown attribute "scope" in options of ClientConfig; valid attributes: scopes, signal',
    )
  })

  it('accepts every known name, undefined values included', () => {
    expect(
      readOptions({ scopes: ['a'], signal: undefined }, 'op', { known: names, noun: 'option' }),
    ).toEqual({ scopes: ['a'], signal: undefined })
  })
})

describe('waitUnlessAborted', () => {
  // Node's process (the other runtimes these tests run in report unhandled rejections themselves).
  const nodeProcess = (globalThis as { process?: NodeJS.Process }).process
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => unhandled.push(reason)
  beforeEach(() => {
    unhandled.length = 0
    nodeProcess?.on('unhandledRejection', onUnhandled)
  })
  afterEach(async () => {
    await new Promise((resolve) => setTimeout(resolve, 30))
    nodeProcess?.off('unhandledRejection', onUnhandled)
    expect(unhandled).toEqual([])
  })

  const aborted = () => new HttpError({ reason: 'aborted', url: '', message: 'aborted' })
  const never = () => new Promise<never>(() => {})
  const later = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms))

  it('without a signal, is the work itself', () => {
    const work = Promise.resolve(1)
    expect(waitUnlessAborted(work, undefined, aborted)).toBe(work)
  })

  it('a signal that fires ends a wait that would never end, in the next timer turn', async () => {
    const controller = new AbortController()
    const waiting = waitUnlessAborted(never(), controller.signal, aborted)
    controller.abort()
    const started = performance.now()
    await expect(waiting).rejects.toMatchObject({ reason: 'aborted' })
    expect(performance.now() - started).toBeLessThan(500)
  })

  it('a signal aborted before the call rejects without waiting', async () => {
    await expect(waitUnlessAborted(never(), AbortSignal.abort(), aborted)).rejects.toMatchObject({
      reason: 'aborted',
    })
  })

  it('work that answers in the task of the abort wins: its own error, or its value', async () => {
    const own = new Error('the operation stopped itself')
    const controller = new AbortController()
    const failing = waitUnlessAborted(
      new Promise((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(own), { once: true }),
      ),
      controller.signal,
      aborted,
    )
    controller.abort()
    await expect(failing).rejects.toBe(own)
    await expect(waitUnlessAborted(Promise.resolve(7), AbortSignal.abort(), aborted)).resolves.toBe(
      7,
    )
  })

  it('work finishing or failing after the caller gave up is handled (no unhandled rejection)', async () => {
    const controller = new AbortController()
    const failsLater = new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 5))
    const waiting = waitUnlessAborted(failsLater, controller.signal, aborted)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ reason: 'aborted' })
    // afterEach waits past the late failure and fails on an unhandled rejection.
  })

  it('a signal that never fires leaves the work alone', async () => {
    const controller = new AbortController()
    await expect(waitUnlessAborted(later(5, 'done'), controller.signal, aborted)).resolves.toBe(
      'done',
    )
  })
})
