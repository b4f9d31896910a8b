import { ConfigurationError } from '@fhir-auth/core'

/** Reads an operation's options object; `undefined` becomes `{}`, anything else not an object fails. */
export function readOptions<T extends object>(value: T | undefined, operation: string): Partial<T> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigurationError({
      invalidAttribute: 'options',
      invalidValue: typeof value,
      message: `${operation} takes an options object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    })
  }
  return value
}

/**
 * An optional string argument: absent stays `undefined`; a wrong type fails.
 *
 * @throws ConfigurationError naming the attribute.
 */
export function optionalString(
  value: unknown,
  attribute: string,
  secret = false,
): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: secret ? `a ${typeof value}` : value,
    message: `${attribute} must be a string, got ${typeof value}`,
  })
}

/**
 * An optional scope list: absent stays `undefined`; otherwise an array of strings.
 *
 * @throws ConfigurationError naming the attribute.
 */
export function optionalScopes(value: unknown, attribute: string): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (Array.isArray(value) && value.every((scope) => typeof scope === 'string')) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: value,
    message: `${attribute} must be an array of strings`,
  })
}
