/**
 * `lazyImport`: a part of the library that fails to load is an `HttpError` (`network`) the caller
 * can switch on, and the next call loads again (a browser chunk can come back).
 */
import { FhirAuthError, HttpError, lazyImport } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'

/** What Chromium rejects `import()` with when the chunk cannot be fetched. */
function chunkFetchFailure(): TypeError {
  return new TypeError(
    'Failed to fetch dynamically imported module: https://app.example/chunks/launch-X1.js',
  )
}

describe('lazyImport', () => {
  it('loads once and shares the module with every caller', async () => {
    let loads = 0
    const module = { answer: 42 }
    const load = lazyImport(async () => {
      loads += 1
      return module
    })
    const [first, second] = await Promise.all([load(), load()])
    expect(first).toBe(module)
    expect(second).toBe(module)
    expect(await load()).toBe(module)
    expect(loads).toBe(1)
  })

  it('turns a failed load into an HttpError (network), the platform error kept as cause', async () => {
    const failure = chunkFetchFailure()
    const load = lazyImport(() => Promise.reject(failure))
    const error: unknown = await load().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(HttpError)
    expect(HttpError.isInstance(error)).toBe(true)
    expect(FhirAuthError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({
      code: 'ERR_HTTP',
      reason: 'network',
      url: '',
      message: 'fhir-auth could not load its code (network error)',
    })
    expect((error as HttpError).cause).toBe(failure)
  })

  it("names a coded failure by its code (Node's ERR_MODULE_NOT_FOUND)", async () => {
    const missing = Object.assign(new Error("Cannot find module '/app/x.js'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    })
    const error = await lazyImport(() => Promise.reject(missing))().catch((caught) => caught)
    expect(error).toMatchObject({
      reason: 'network',
      message: 'fhir-auth could not load its code (ERR_MODULE_NOT_FOUND)',
    })
  })

  it('shares one failure among concurrent callers, then loads again on the next call', async () => {
    let loads = 0
    const module = { loaded: true }
    const load = lazyImport(async () => {
      loads += 1
      if (loads === 1) throw chunkFetchFailure()
      return module
    })
    const failures = await Promise.allSettled([load(), load()])
    expect(failures.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
    expect(loads).toBe(1)
    expect(await load()).toBe(module)
    expect(loads).toBe(2)
  })

  it('reads nothing of a hostile rejection but its name and code', async () => {
    const hostile = {
      get name(): string {
        throw new Error('getter ran')
      },
      get message(): string {
        throw new Error('getter ran')
      },
    }
    const error = await lazyImport(() => Promise.reject(hostile))().catch((caught) => caught)
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).message).toBe('fhir-auth could not load its code (network error)')
  })
})
