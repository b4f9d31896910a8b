import { ConfigurationError } from '../errors/configuration-error.js'
import { describeKind } from './describe-kind.js'

/**
 * The one "wrong type" error every package throws for an argument a JavaScript caller got
 * wrong: `<attribute> must be <expected>, not <kind>` (for example "launch must be a string,
 * not a number"). The message names the kind of value, never the value itself.
 *
 * @param secret - when true (keys, secrets, codes) `invalidValue` carries only the kind of
 *   value; otherwise the value as given.
 * @param kind - what the value is, when {@link describeKind} says too little.
 * @internal
 */
export function wrongType(
  attribute: string,
  expected: string,
  value: unknown,
  secret = false,
  kind = describeKind(value),
): ConfigurationError {
  return new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: secret || typeof value === 'string' ? kind : value,
    message: `${attribute} must be ${expected}, not ${kind}`,
  })
}
