import { expect } from 'vitest'
import { ConfigurationError } from '../../src/index.js'

/** Runs `operation`, which must throw a `ConfigurationError`, and returns that error. */
export function configurationError(operation: () => unknown): ConfigurationError {
  try {
    operation()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError)
    return error as ConfigurationError
  }
  throw new Error('expected a ConfigurationError, but nothing was thrown')
}
