/** `--base-url` section 1: SMART discovery on a real server. */
import type { Flow } from '../flow.js'
import type { RemoteWorld } from '../remote-world.js'
import { showSmartDiscovery } from './smart-discovery-view.js'

/**
 * Fetches the server's SMART configuration and shows its capabilities and the library's
 * predicates. Non-compliance is shown as the library's warnings, not as a failure: the point
 * is to see what the server offers.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html
 */
export const remoteSmartDiscoveryFlow: Flow<RemoteWorld> = {
  title: 'SMART discovery',
  async run(context, world) {
    const client = context.createClient({
      baseUrl: world.baseUrl,
      allowInsecureLocalhost: world.loopback,
    })
    const { compliant } = await showSmartDiscovery(context, client)
    if (!compliant) {
      context.transcript.note('the warnings above list what the document lacks for SMART 2.2.0')
    }
  },
}
