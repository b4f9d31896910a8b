import { ConfigurationError } from '../errors/configuration-error.js'
import { isNonBlankString } from './non-blank-string.js'

/*
 * The scopes a request sends. Apart from `optionalScopes` (checks/scopes.ts), which the
 * `Client` operations run up front: only the requests, loaded on demand, read these.
 */

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
