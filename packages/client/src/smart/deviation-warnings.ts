import type { Logger } from '@fhir-auth/core/essentials'
import type { SmartMetadata } from '@fhir-auth/smart/launch'

/**
 * One warning per endpoint URL the document gives without a scheme: SMART requires absolute
 * URLs, and the value is resolved against the FHIR base (a `//host/…` one is refused where it
 * is used).
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata
 */
export function warnOnRelativeEndpoints(metadata: SmartMetadata, logger: Logger): void {
  for (const [member, value] of Object.entries(metadata.raw)) {
    if (!/_endpoint$|^jwks_uri$/.test(member) || typeof value !== 'string') continue
    if (value.trim() === '' || /^[a-z][a-z\d+.-]*:/i.test(value)) continue
    logger.warn(
      value.trimStart().startsWith('//')
        ? `The SMART configuration's ${member} names another server without a scheme; it is not used`
        : `The SMART configuration's ${member} is a relative URL; resolved against the FHIR base`,
      { event: 'smart.deviation', member },
    )
  }
}

/**
 * athenahealth requires PKCE S256 but does not list it: S256 is sent anyway (RFC 7636 lets a
 * client send it to any server), with this warning once per client.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata
 */
export function warnOnUnlistedPkce(logger: Logger): void {
  logger.warn(
    'The SMART configuration has no code_challenge_methods_supported (SMART requires it); sending PKCE S256 anyway',
    { event: 'smart.deviation', member: 'code_challenge_methods_supported' },
  )
}
