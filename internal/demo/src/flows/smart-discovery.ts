/** Section 1: SMART discovery on the sandbox. */
import { DemoFailure } from '../demo-failure.js'
import type { Flow } from '../flow.js'
import type { SandboxWorld } from '../sandbox-world.js'
import { showSmartDiscovery } from './smart-discovery-view.js'

/**
 * Fetches `.well-known/smart-configuration` and shows endpoints, capabilities and predicates.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html
 */
export const smartDiscoveryFlow: Flow<SandboxWorld> = {
  title: 'SMART discovery',
  async run(context, world) {
    context.transcript.note(
      'One Client per relationship with a server; construction does no I/O, discovery is lazy and cached.',
    )
    const client = context.createClient({
      baseUrl: world.smart.fhirBaseUrl,
      allowInsecureLocalhost: true,
    })
    const { compliant } = await showSmartDiscovery(context, client)
    if (!compliant)
      throw new DemoFailure('the sandbox discovery document is not SMART 2.2.0 compliant')
  },
}
