/** `--base-url` section 2: UDAP trusted discovery on a real server, when trust inputs are given. */
import type { Flow } from '../flow.js'
import type { RemoteWorld } from '../remote-world.js'
import { showUdapDiscovery } from './udap-discovery-view.js'

/**
 * Validates the server's `signed_metadata` against the given anchors and CRLs; skipped, with
 * the reason, when either is missing (the library would refuse: it fails closed).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html
 */
export const remoteUdapDiscoveryFlow: Flow<RemoteWorld> = {
  title: 'UDAP discovery',
  skipReason({ trust }) {
    if (trust.trustedAnchors.length > 0 && (trust.crls?.length ?? 0) > 0) return undefined
    return [
      'skipped: UDAP discovery validates signed_metadata against anchors you trust, with current CRLs;',
      'pass --trust-anchor <pem file> and --crl <file> (both, each repeatable) to run it',
    ]
  },
  async run(context, world) {
    const client = context.createClient(
      { baseUrl: world.baseUrl, allowInsecureLocalhost: world.loopback },
      { protocol: 'udap' },
    )
    await showUdapDiscovery(context, client, world.trust)
  },
}
