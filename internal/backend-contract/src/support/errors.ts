import {
  CertificateChainError,
  ConfigurationError,
  CryptoError,
  type CryptoErrorReason,
  FhirAuthError,
} from '@fhir-auth/core'
import { expect } from 'vitest'

/**
 * Awaits a promise that must reject with a fhir-auth error (never a raw `TypeError` or
 * `DOMException`) and returns that error. The operation is passed as a function, so a
 * synchronous throw counts as a failure of the contract as well.
 */
export async function rejection(operation: () => Promise<unknown>): Promise<FhirAuthError> {
  let pending: Promise<unknown> | undefined
  try {
    pending = operation()
  } catch (error) {
    expect.fail(`the operation threw synchronously instead of rejecting: ${describeError(error)}`)
  }
  expect(pending, 'the operation must return a promise').toBeInstanceOf(Promise)
  let outcome: { readonly error: unknown } | undefined
  try {
    await pending
  } catch (error) {
    outcome = { error }
  }
  expect(outcome, 'expected a rejection, but the operation succeeded').toBeDefined()
  const error = outcome?.error
  expect(
    FhirAuthError.isFhirAuthError(error),
    `expected a FhirAuthError, got ${describeError(error)}`,
  ).toBe(true)
  return error as FhirAuthError
}

/** Expects a `CryptoError` with the given reason and returns it. */
export async function cryptoRejection(
  operation: () => Promise<unknown>,
  reason: CryptoErrorReason,
): Promise<CryptoError> {
  const error = await rejection(operation)
  expect(error, `expected CryptoError ${reason}, got ${describeError(error)}`).toBeInstanceOf(
    CryptoError,
  )
  expect((error as CryptoError).reason).toBe(reason)
  return error as CryptoError
}

/** Expects a `ConfigurationError` on `jwtAlgorithm` and returns it. */
export async function jwtAlgorithmRejection(
  operation: () => Promise<unknown>,
): Promise<ConfigurationError> {
  const error = await rejection(operation)
  expect(error, `expected ConfigurationError, got ${describeError(error)}`).toBeInstanceOf(
    ConfigurationError,
  )
  expect((error as ConfigurationError).invalidAttribute).toBe('jwtAlgorithm')
  return error as ConfigurationError
}

/** The verdict of a chain validation: `'ok'` or the `CertificateChainError` reason. */
export async function chainVerdict(operation: () => Promise<unknown>): Promise<string> {
  try {
    await operation()
    return 'ok'
  } catch (error) {
    if (error instanceof CertificateChainError) return error.reason
    throw error
  }
}

/**
 * Asserts that no secret text (a password, a PEM body line) appears in what a caller or a
 * logger can see of an error and of each link of its `cause` chain: message, stack, `String`,
 * `JSON.stringify` (its `toJSON`) and every own property (what `util.inspect` prints). Portable:
 * the suite also runs in browsers, where there is no `util.inspect`.
 */
export function expectNoSecret(error: unknown, secrets: readonly string[]): void {
  let current: unknown = error
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const texts = printedForms(current)
    for (const secret of secrets) {
      expect(
        texts.some((text) => text.includes(secret)),
        'an error or its cause shows secret material',
      ).toBe(false)
    }
    current = current instanceof Error ? current.cause : undefined
  }
}

function printedForms(value: unknown): string[] {
  const texts = [String(value), JSON.stringify(value) ?? '']
  if (value instanceof Error) texts.push(value.message, value.stack ?? '')
  if (typeof value === 'object' && value !== null) {
    for (const name of Object.getOwnPropertyNames(value)) {
      const member: unknown = (value as Record<string, unknown>)[name]
      texts.push(typeof member === 'string' ? member : (JSON.stringify(member) ?? ''))
    }
  }
  return texts
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return String(error)
}
