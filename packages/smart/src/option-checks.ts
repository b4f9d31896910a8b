import { ConfigurationError, type TransportOptions, usableScopes } from '@fhir-auth/core'

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
