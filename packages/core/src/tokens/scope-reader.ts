import { ConfigurationError } from '../errors/configuration-error.js'
import type { Logger } from '../logging/logger.js'
import type { ScopeSet } from '../scopes/scope-set.js'

/*
 * How `TokenSet.grantedScopes` reaches the scope parser without importing it. `TokenSet` is code
 * every app loads before it does anything; the parser is not (ADR 0012): it registers itself here
 * when its module is evaluated — in Node whenever `@fhir-auth/core`, `@fhir-auth/smart` or
 * `@fhir-auth/client` is imported; in a bundle whenever the app or the client's code loaded on
 * demand uses it.
 */

/** @internal */
export type ScopeReader = (scopes: readonly string[], logger: Logger | undefined) => ScopeSet

let reader: ScopeReader | undefined

/** @internal Called by the scope parser's module. */
export function provideScopeReader(read: ScopeReader): void {
  reader = read
}

/**
 * The registered parser, when its module was evaluated: the client's own scope checks use it
 * when it is there and compare scopes as text when it is not (a bundle that never imports it).
 *
 * @internal
 */
export function loadedScopeReader(): ScopeReader | undefined {
  return reader
}

/**
 * The scopes parsed by the registered parser.
 *
 * @throws ConfigurationError on `grantedScopes` in a bundle that left the parser out.
 * @internal
 */
export function readScopes(scopes: readonly string[], logger: Logger | undefined): ScopeSet {
  if (reader !== undefined) return reader(scopes, logger)
  throw new ConfigurationError({
    invalidAttribute: 'grantedScopes',
    message: 'grantedScopes needs parseScopes: import it from `@fhir-auth/client`',
  })
}
