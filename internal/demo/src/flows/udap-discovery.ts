/** Section 8: UDAP discovery with trust validation, and a hostile variant refused. */
import { CertificateChainError, DiscoveryError, type UdapTrustOptions } from '@fhir-auth/client'
import type { HostileDiscoveryVariant } from '@fhir-auth/sandbox'
import type { DemoContext } from '../demo-context.js'
import type { Flow } from '../flow.js'
import { type SandboxWorld, udapClientUri } from '../sandbox-world.js'
import { showUdapDiscovery, udapDiscoveryCall } from './udap-discovery-view.js'
import { udapRegistrationMetadata } from './udap-registration.js'

/**
 * Validates the sandbox's `signed_metadata` against its anchor and CRLs; then the same server
 * with a revoked certificate and with a trailing slash in its SAN: discovery is refused, and
 * so is every registration attempt, before a single request reaches the registration endpoint.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
export const udapDiscoveryFlow: Flow<SandboxWorld> = {
  title: 'UDAP discovery: signed metadata checked against the trust anchor and CRLs',
  async run(context, world) {
    const client = createUdapClient(context, world)
    await showUdapDiscovery(context, client, world.udapTrust)
    world.handoffs.udapClient = client

    const registrationsBefore = world.udap.requestCounts.registration
    try {
      await refuseHostile(context, world, 'revoked-leaf', true)
      await refuseHostile(context, world, 'san-trailing-slash', false)
    } finally {
      world.udap.setHostile(undefined)
    }
    const registrations = world.udap.requestCounts.registration - registrationsBefore
    context.check(
      registrations === 0,
      'nothing was registered: the registration endpoint received 0 requests',
      `the registration endpoint received ${registrations} request(s) from a refused client`,
    )
  },
}

function createUdapClient(context: DemoContext, world: SandboxWorld) {
  return context.createClient(
    {
      baseUrl: world.udap.fhirBaseUrl,
      privateKey: world.udapCertificate.privateKeyPem,
      certificateChain: world.udapCertificate.chainDer,
      scopes: ['system/*.rs'],
      allowInsecureLocalhost: true,
    },
    { protocol: 'udap' },
  )
}

/** Switches the sandbox to `variant` and shows a fresh client refusing it. */
async function refuseHostile(
  context: DemoContext,
  world: SandboxWorld,
  variant: HostileDiscoveryVariant,
  tryToRegister: boolean,
): Promise<void> {
  const { transcript } = context
  const trust: UdapTrustOptions = world.udapTrust
  transcript.note(
    `the same server, now wrong in one way (sandbox.setHostile('${variant}')), a new client:`,
  )
  world.udap.setHostile(variant)
  const client = context.createClient(
    {
      baseUrl: world.udap.fhirBaseUrl,
      privateKey: world.udapCertificate.privateKeyPem,
      certificateChain: world.udapCertificate.chainDer,
      allowInsecureLocalhost: true,
    },
    { protocol: 'udap' },
  )
  const error = await context.refusal(udapDiscoveryCall, () => client.serverMetadata(trust))
  const chainReason = error.cause instanceof CertificateChainError ? error.cause.reason : undefined
  context.check(
    error instanceof DiscoveryError,
    chainReason === undefined
      ? 'DiscoveryError: the client stops here'
      : `DiscoveryError, cause CertificateChainError reason '${chainReason}': the client stops here`,
    `expected a DiscoveryError, got ${error.name}`,
  )
  if (!tryToRegister) return
  const refused = await context.refusal(
    'client.registerClient(metadata, { clientUri, trustedAnchors, crls })',
    () => client.registerClient(udapRegistrationMetadata, { clientUri: udapClientUri, ...trust }),
  )
  context.check(
    refused instanceof DiscoveryError,
    'registration refused too: it needs trusted metadata first',
    `expected the registration to fail with a DiscoveryError, got ${refused.name}`,
  )
}
