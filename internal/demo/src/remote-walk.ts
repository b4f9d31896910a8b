/**
 * The `--base-url` walk: what a real server answers without a user or credentials. Each flow
 * runs even when another fails, since they do not depend on each other.
 */
import type { UdapTrustOptions } from '@fhir-auth/client'
import { isLoopbackHostname } from '@fhir-auth/core'
import type { DemoContext } from './demo-context.js'
import { type Flow, runFlows, type WalkProgress, type WalkResult } from './flow.js'
import { remoteSmartDiscoveryFlow } from './flows/remote-smart-discovery.js'
import { remoteUdapDiscoveryFlow } from './flows/remote-udap-discovery.js'
import type { RemoteWorld } from './remote-world.js'

/** The sections of the `--base-url` walk, in order. */
export const remoteFlows: readonly Flow<RemoteWorld>[] = [
  remoteSmartDiscoveryFlow,
  remoteUdapDiscoveryFlow,
]

/** What the sandbox walk does that a real server cannot be asked without more than a URL. */
const notRun = [
  'app launches, code exchange and refresh: need a user signing in at the server and a registered client',
  'backend services and SMART registration: need credentials the server knows',
  'UDAP registration and tokens: need a client certificate the server trusts',
]

/** Runs discovery against `baseUrl`. */
export async function runRemoteWalk(
  context: DemoContext,
  baseUrl: string,
  trust: UdapTrustOptions,
  progress: WalkProgress,
): Promise<WalkResult> {
  const { transcript } = context
  transcript.title(
    `fhir-auth demo: @fhir-auth/client against ${baseUrl}`,
    'Only what needs no user and no credentials runs here; `pnpm demo` without --base-url shows every flow.',
  )
  for (const reason of notRun) transcript.skipped(`not run: ${reason}`)
  const loopback = isLoopbackHostname(new URL(baseUrl).hostname)
  if (new URL(baseUrl).protocol === 'http:' && !loopback) {
    transcript.warning(
      'an http:// base URL that is not loopback: the library will refuse it (HTTPS is required)',
    )
  }
  const world: RemoteWorld = { baseUrl, loopback, trust }
  return runFlows(context, remoteFlows, world, { stopAtFirstFailure: false, progress })
}
