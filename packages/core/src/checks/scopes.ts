import { ConfigurationError } from '../errors/configuration-error.js'
import { isNonBlankString } from './non-blank-string.js'
import { wrongType } from './wrong-type.js'

/**
 * The non-blank entries of a scope list, or `undefined` when none is left (or the value is not
 * an array). Entries are kept as written: scopes are opaque to the client.
 *
 * @internal
 */
export function usableScopes(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  const scopes = value.filter(isNonBlankString)
  return scopes.length > 0 ? scopes : undefined
}

/**
 * An optional scope list: absent (`undefined` or `null`) stays `undefined`; otherwise it must be
 * an array of strings, returned as given (blank entries included).
 *
 * @throws ConfigurationError on `attribute` for anything else.
 * @internal
 */
export function optionalScopes(value: unknown, attribute: string): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (Array.isArray(value) && value.every((scope) => typeof scope === 'string')) return value
  const kind = Array.isArray(value) ? 'an array with an entry that is not a string' : undefined
  throw wrongType(attribute, 'an array of strings', value, false, kind)
}

/**
 * The scopes of a request that cannot go without them, joined by single spaces.
 *
 * @throws ConfigurationError on `scopes` when no non-blank scope is given.
 * @internal
 */
export function requireScopes(value: unknown): string {
  const scopes = usableScopes(value)
  if (scopes !== undefined) return scopes.join(' ')
  throw new ConfigurationError({
    invalidAttribute: 'scopes',
    message: 'scopes must be an array with at least one non-blank scope',
  })
}
