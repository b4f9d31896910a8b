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

/** True for a string with something other than whitespace in it. */
export function isPresent(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== ''
}

/**
 * A required, non-blank string argument or attribute.
 *
 * @param secret when true the value is never echoed in the error.
 * @throws ConfigurationError naming the attribute.
 */
export function requireString(value: unknown, attribute: string, secret = false): string {
  if (isPresent(value)) return value
  if (value === undefined || value === null || value === '')
    throw new ConfigurationError({ invalidAttribute: attribute })
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue:
      secret || typeof value === 'string'
        ? `a ${typeof value === 'string' ? 'blank string' : typeof value}`
        : value,
    message: `${attribute} must be a non-blank string, got ${typeof value === 'string' ? 'a blank string' : typeof value}`,
  })
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

/** Scopes without blank entries; `undefined` when nothing usable is left. */
export function usableScopes(scopes: readonly string[] | undefined): readonly string[] | undefined {
  const usable = scopes?.filter((scope) => scope.trim() !== '')
  return usable !== undefined && usable.length > 0 ? usable : undefined
}
