import { ConfigurationError } from '../errors/configuration-error.js'
import { type Logger, silentLogger } from '../logging/logger.js'
import { loadedScopeReader } from './scope-reader.js'

/**
 * The scopes of `asked` that `granted` does not cover: by meaning (`parseScopes`: v1 `read` is
 * v2 `rs`, `patient/*.rs` covers `patient/Observation.r`) when the parser is loaded — always in
 * Node — else as text (a browser bundle that never imports `parseScopes`: stricter, never wider).
 * Scopes granted word for word never load or run the parser.
 */
function notGranted(asked: readonly string[], granted: readonly string[]): string[] {
  const missing = asked.filter((scope) => scope.trim() !== '' && !granted.includes(scope))
  const read = loadedScopeReader()
  return missing.length === 0 || read === undefined
    ? missing
    : read(asked, silentLogger).compare(read(granted, silentLogger)).missing
}

/**
 * Warns `scope.narrowed` when the server granted less than `asked` (SMART: servers may narrow a
 * request, and clients should check what was granted). Not an error: the app decides.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html#wildcard-scopes SMART 2.2: examine the granted scopes
 * @internal
 */
export function warnIfNarrowed(
  asked: readonly string[],
  granted: readonly string[],
  logger: Logger,
): void {
  const missing = notGranted(asked, granted)
  if (missing.length > 0)
    logger.warn(`The server granted fewer scopes than asked; missing: ${missing.join(' ')}`, {
      event: 'scope.narrowed',
      missing,
    })
}

/**
 * Refuses a refresh for scopes outside the current grant, before anything is sent: a refresh
 * may only narrow it (RFC 6749 §6). A grant that is not known (tokens resumed from a response
 * without `scope`, made without the scopes asked for) is left to the server to judge.
 *
 * @throws ConfigurationError on `scopes`.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
 * @internal
 */
export function requireWithinGrant(
  asked: readonly string[] | undefined,
  granted: readonly string[],
): void {
  const missing = asked === undefined || granted.length === 0 ? [] : notGranted(asked, granted)
  if (missing.length > 0)
    throw new ConfigurationError({
      invalidAttribute: 'scopes',
      invalidValue: missing,
      message: `a refresh may only narrow the grant (RFC 6749 §6); not granted: ${missing.join(' ')}`,
    })
}
