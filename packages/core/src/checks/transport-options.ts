import { wrongType } from './wrong-type.js'

/**
 * Returns `value` when it is an integer from 1 to `max`.
 *
 * @throws ConfigurationError on `attribute`, describing a number by its value (`3000000000`).
 * @internal
 */
export function requireCount(value: unknown, attribute: string, max: number, unit: string): number {
  if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max) {
    return value as number
  }
  const expected = `an integer from 1 to ${max} (${unit})`
  throw wrongType(
    attribute,
    expected,
    value,
    false,
    typeof value === 'number' ? `${value}` : undefined,
  )
}

/**
 * Returns `value` when it is a usable request time limit: an integer number of milliseconds
 * from 1 to 2 147 483 647, the longest delay `setTimeout` takes (a longer one fires at once).
 *
 * @throws ConfigurationError on `timeoutMs`.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 * @internal
 */
export function requireTimeoutMs(value: unknown): number {
  return requireCount(value, 'timeoutMs', 2_147_483_647, 'ms')
}

/**
 * Returns the caller's `AbortSignal`, or `undefined` when none is given (`null` counts as none).
 *
 * @throws ConfigurationError on `signal` for anything that is not an `AbortSignal`.
 * @internal
 */
export function optionalSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined || value === null) return undefined
  if (value instanceof AbortSignal) return value
  throw wrongType('signal', 'an AbortSignal', value)
}
