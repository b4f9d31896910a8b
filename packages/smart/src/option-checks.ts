import { ConfigurationError, type TransportOptions } from '@fhir-auth/core'

/**
 * Returns `value` when it is a non-blank string, else throws. JavaScript callers can pass
 * anything; they get a typed error naming the option, never a `TypeError` from deeper down.
 * The value itself is never echoed: the option may hold a secret (a code, a client secret).
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requireText(value: unknown, attribute: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    message:
      value === undefined
        ? `${attribute} is required`
        : `${attribute} must be a non-blank string, not ${typeof value === 'string' ? 'a blank string' : describeType(value)}`,
  })
}

/**
 * The non-blank entries of a scope list, or `undefined` when none is left (or the value is not
 * an array). Entries are kept as written: SMART scopes are opaque to the client.
 *
 * @internal
 */
export function usableScopes(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  const scopes = value.filter(
    (scope): scope is string => typeof scope === 'string' && scope.trim() !== '',
  )
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

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

/**
 * The transport settings of an options object, and nothing else: flow options also hold
 * codes, secrets and signers, which have no business in the request description.
 *
 * @internal
 */
export function transportOf(options: TransportOptions): TransportOptions {
  const { fetch, timeoutMs, signal, allowInsecureLocalhost, maxResponseBytes } = options
  return { fetch, timeoutMs, signal, allowInsecureLocalhost, maxResponseBytes }
}
