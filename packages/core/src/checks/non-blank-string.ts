import { wrongType } from './wrong-type.js'

/**
 * True for a string with something other than whitespace in it.
 *
 * @internal
 */
export function isNonBlankString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== ''
}

/**
 * An optional string argument: absent (`undefined` or `null`) stays `undefined`; a string is
 * returned as it is (blank included: the caller decides what blank means).
 *
 * @throws ConfigurationError on `attribute` for any other type.
 * @internal
 */
export function optionalString(
  value: unknown,
  attribute: string,
  secret = false,
): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  throw wrongType(attribute, 'a string', value, secret)
}
