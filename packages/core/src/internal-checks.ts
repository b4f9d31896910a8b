/**
 * `@fhir-auth/core/internal/checks`: the part of `@fhir-auth/core/internal` that code loaded up
 * front needs (argument checks, the caller-signal race, loading on demand). Not a public API.
 *
 * An entry of its own because a bundler that splits code per dynamic import puts every file an
 * entry re-exports into the chunk of whoever imports the entry (ADR 0012): up-front code that took
 * its checks from `core/internal` would load the request plumbing with them.
 *
 * @internal
 * @packageDocumentation
 */

export { requireBasicAuthEncoding } from './checks/basic-auth-encoding.js'
export { describeKind } from './checks/describe-kind.js'
export { isNonBlankString, optionalString } from './checks/non-blank-string.js'
export {
  type OptionNameSet,
  optionNames,
  type ReadOptionsRules,
  readOptions,
} from './checks/options-object.js'
export { optionalScopes } from './checks/scopes.js'
export {
  optionalSignal,
  requireTimeoutMs,
} from './checks/transport-options.js'
export { wrongType } from './checks/wrong-type.js'
export { abortedByCaller, raceSignal } from './http/caller-signal.js'
export { readUriHost, uriHostRule } from './http/uri-host.js'
export { lazy } from './loading/lazy.js'
export { lazyImport } from './loading/lazy-import.js'
export { waitUnlessAborted } from './loading/wait-unless-aborted.js'
export { failSafeLogger } from './logging/fail-safe-logger.js'
export {
  hasTokenResponseMemberType,
  type TokenResponseMemberType,
  tokenResponseMemberTypes,
} from './oauth/token-response-members.js'
