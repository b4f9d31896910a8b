import { isNonBlankString } from './non-blank-string.js'

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
