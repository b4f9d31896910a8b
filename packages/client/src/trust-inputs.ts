import type { UdapTrustOptions } from './operation-options.js'

/**
 * The UDAP trust inputs among an operation's options, as given (the UDAP implementation checks
 * them; SMART has none and ignores them). Sessions keep them for their refreshes.
 *
 * @internal
 */
export function trustInputsOf(options: Partial<UdapTrustOptions>): Partial<UdapTrustOptions> {
  const { trustedAnchors, crls, revocation, community } = options
  return {
    ...(trustedAnchors === undefined ? {} : { trustedAnchors }),
    ...(crls === undefined ? {} : { crls }),
    ...(revocation === undefined ? {} : { revocation }),
    ...(community === undefined ? {} : { community }),
  }
}
