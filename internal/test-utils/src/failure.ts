/**
 * The error an operation fails with, typed, for tests that assert several of its fields
 * (`@fhir-auth/test-utils/failure`; portable). Use it instead of `try { …; expect.fail() }
 * catch`, whose `catch` also swallows the failure `expect.fail()` throws: a call that stops
 * throwing would still pass such a test.
 *
 * @example
 * ```ts
 * const error = await failureOf(discover(options), DiscoveryError)
 * expect(error.status).toBe(404)
 * ```
 */
import { expect } from 'vitest'

/**
 * Awaits `operation`, expects it to fail with an instance of `errorClass`, and returns that
 * error. A success fails the test.
 */
export async function failureOf<ErrorType extends Error>(
  operation: Promise<unknown> | (() => Promise<unknown>),
  errorClass: abstract new (...parameters: never[]) => ErrorType,
): Promise<ErrorType> {
  let outcome: unknown
  try {
    await (typeof operation === 'function' ? operation() : operation)
    outcome = undefined
  } catch (error) {
    outcome = error
  }
  expect(outcome, 'the operation was expected to fail').toBeInstanceOf(errorClass)
  return outcome as ErrorType
}

/**
 * Awaits `operation` and returns what it rejected with, whatever that is (for tests of what a
 * failure is not: a raw `TypeError`, a non-error value). A success fails the test.
 */
export async function rejectionOf(
  operation: Promise<unknown> | (() => Promise<unknown>),
): Promise<unknown> {
  try {
    await (typeof operation === 'function' ? operation() : operation)
  } catch (error) {
    return error
  }
  return expect.fail('the operation was expected to fail, but it succeeded')
}

/** The same for a synchronous operation (a constructor or a setter). */
export function syncFailureOf<ErrorType extends Error>(
  operation: () => unknown,
  errorClass: abstract new (...parameters: never[]) => ErrorType,
): ErrorType {
  let outcome: unknown
  try {
    operation()
  } catch (error) {
    outcome = error
  }
  expect(outcome, 'the operation was expected to fail').toBeInstanceOf(errorClass)
  return outcome as ErrorType
}
