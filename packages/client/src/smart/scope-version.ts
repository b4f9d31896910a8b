import { ConfigurationError, type Logger } from '@fhir-auth/core/essentials'
import { loadedScopeReader } from '@fhir-auth/core/internal'
import type { ScopeVersion } from '../client-options.js'

/**
 * The scopes in the syntax `ClientOptions.scopeVersion` asks for: v1 or v2 as configured, or
 * for `'auto'` the only one the server's `capabilities` name (`permission-v1`,
 * `permission-v2`); the scopes as written when it names both or neither. Loaded on demand, only
 * by a client whose `scopeVersion` is not `'as-configured'`.
 *
 * @throws ConfigurationError on `scopeVersion` in a bundle without the scope parser.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html#scopes-for-requesting-clinical-data SMART 2.2: permission-v1
 * @internal
 */
export async function scopesInVersion(
  scopes: readonly string[],
  version: ScopeVersion,
  capabilities: () => Promise<readonly string[]>,
  logger: Logger,
): Promise<readonly string[]> {
  let target = version
  if (version === 'auto') {
    const advertised = await capabilities()
    const v1 = advertised.includes('permission-v1')
    const v2 = advertised.includes('permission-v2')
    target = v1 === v2 ? 'as-configured' : v1 ? 'v1' : 'v2'
  }
  if (target === 'as-configured') return scopes
  const read = loadedScopeReader()
  if (read === undefined)
    throw new ConfigurationError({
      invalidAttribute: 'scopeVersion',
      message: `scopeVersion '${version}' needs parseScopes: import it from @fhir-auth/client`,
    })
  const set = read(scopes, logger)
  return target === 'v1' ? set.toV1() : set.toV2()
}
