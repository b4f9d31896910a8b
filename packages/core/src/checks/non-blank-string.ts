import { ConfigurationError } from '../errors/configuration-error.js'
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
 * Returns `value` when it is a non-blank string, else throws. JavaScript callers can pass
 * anything; they get a typed error naming the argument, never a `TypeError` from deeper down.
 * The message never echoes the value (it may be a code, a secret or an assertion);
 * `invalidValue` carries it only when `secret` is false and it is not a string.
 *
 * @throws ConfigurationError on `attribute`: "`attribute` is required" when absent, null or
 *   empty, else "`attribute` must be a non-blank string, not …".
 * @internal
 */
export function requireNonBlankString(value: unknown, attribute: string, secret = true): string {
  if (isNonBlankString(value)) return value
  if (value === undefined || value === null || value === '') {
    throw new ConfigurationError({ invalidAttribute: attribute })
  }
  throw wrongType(attribute, 'a non-blank string', value, secret)
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
