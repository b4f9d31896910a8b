/**
 * The full walk: the sandboxes on 127.0.0.1, then the fourteen flows in order, each building on
 * the ones before (so the first failure ends the walk).
 */
import type { DemoContext } from './demo-context.js'
import { type Flow, runFlows, type WalkProgress, type WalkResult } from './flow.js'
import { backendServicesFlow } from './flows/backend-services.js'
import { confidentialClientsFlow } from './flows/confidential-clients.js'
import { ehrLaunchFlow } from './flows/ehr-launch.js'
import { refreshFlow } from './flows/refresh.js'
import { smartDiscoveryFlow } from './flows/smart-discovery.js'
import { smartRegistrationFlow } from './flows/smart-registration.js'
import { standaloneLaunchFlow } from './flows/standalone-launch.js'
import { udapB2bTokenFlow } from './flows/udap-b2b-token.js'
import { udapCancellationFlow } from './flows/udap-cancellation.js'
import { udapConsumerAppFlow } from './flows/udap-consumer-app.js'
import { udapDiscoveryFlow } from './flows/udap-discovery.js'
import { udapInteractiveB2bFlow } from './flows/udap-interactive-b2b.js'
import { udapRegistrationFlow } from './flows/udap-registration.js'
import { udapTieredOAuthFlow } from './flows/udap-tiered-oauth.js'
import { type SandboxWorld, startSandboxWorld } from './sandbox-world.js'

/** The sections of the sandbox walk, in order. */
export const sandboxFlows: readonly Flow<SandboxWorld>[] = [
  smartDiscoveryFlow,
  standaloneLaunchFlow,
  ehrLaunchFlow,
  confidentialClientsFlow,
  refreshFlow,
  backendServicesFlow,
  smartRegistrationFlow,
  udapDiscoveryFlow,
  udapRegistrationFlow,
  udapB2bTokenFlow,
  udapCancellationFlow,
  udapConsumerAppFlow,
  udapInteractiveB2bFlow,
  udapTieredOAuthFlow,
]

/**
 * Starts the sandboxes, runs every flow and closes the sandboxes.
 *
 * @throws whatever start-up throws (a port, a key); flow failures are in the result.
 */
export async function runSandboxWalk(
  context: DemoContext,
  progress: WalkProgress,
): Promise<WalkResult> {
  const { transcript } = context
  transcript.title(
    'fhir-auth demo: @fhir-auth/client against two local authorization servers',
    'SMART App Launch 2.2.0 and UDAP Security STU2, every request and response shown; secrets are never printed.',
  )
  const startedAt = performance.now()
  const world = await startSandboxWorld(context.ledger)
  try {
    transcript.rows(
      [
        {
          name: 'SMART sandbox',
          value: `${world.smart.fhirBaseUrl}  oidc-provider, strict SMART App Launch 2.2.0`,
        },
        {
          name: 'UDAP sandbox',
          value: `${world.udap.fhirBaseUrl}  signed metadata, test PKI with CRLs, hl7-b2b required`,
        },
        {
          name: 'UDAP data holder',
          value: `${world.tiered.dataHolder.fhirBaseUrl}  authorization code, refresh, Tiered OAuth`,
        },
        {
          name: 'identity provider',
          value: `${world.tiered.identityProvider.fhirBaseUrl}  OpenID Connect for Tiered OAuth, its own PKI`,
        },
      ],
      1,
    )
    transcript.note(
      `started in ${Math.round(performance.now() - startedAt)} ms; plain HTTP is allowed for 127.0.0.1 only, with allowInsecureLocalhost`,
    )
    return await runFlows(context, sandboxFlows, world, { stopAtFirstFailure: true, progress })
  } finally {
    await world.close()
  }
}
