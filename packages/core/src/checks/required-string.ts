import { ConfigurationError } from '../errors/configuration-error.js'
import { isNonBlankString } from './non-blank-string.js'
import { wrongType } from './wrong-type.js'

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
