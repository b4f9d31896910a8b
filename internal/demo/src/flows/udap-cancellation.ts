/** Section 11: UDAP registration cancellation. */
import { TokenError } from '@fhir-auth/client'
import type { Flow } from '../flow.js'
import { handoff, type SandboxWorld, udapClientUri } from '../sandbox-world.js'
import { demoB2bExtension } from './udap-b2b-token.js'
import { udapCancellationMetadata } from './udap-registration.js'

/**
 * Cancels the registration with a software statement whose `grant_types` is empty; the server
 * echoes `grant_types: []`, and a token request with the old `client_id` is refused.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
 */
export const udapCancellationFlow: Flow<SandboxWorld> = {
  title: 'UDAP cancellation: grant_types []',
  async run(context, world) {
    const client = handoff(world.handoffs.udapClient, 'section 8 (UDAP discovery)')
    const registration = handoff(world.handoffs.udapRegistration, 'section 9 (UDAP registration)')
    const cancelled = await context.call(
      'client.cancelRegistration(metadata, { clientUri, trustedAnchors, crls })',
      () =>
        client.cancelRegistration(udapCancellationMetadata, {
          clientUri: udapClientUri,
          ...world.udapTrust,
        }),
      { responseFields: ['client_id', 'client_name', 'grant_types'] },
    )
    context.check(
      Array.isArray(cancelled.grant_types) &&
        cancelled.grant_types.length === 0 &&
        cancelled.client_id === registration.client_id,
      `cancelled: client_id ${cancelled.client_id} now has grant_types []`,
      'the cancellation response does not echo an empty grant_types for the same client_id',
    )
    context.transcript.note('a client still configured with that client_id asks for a token:')
    const stale = context.createClient(
      {
        baseUrl: world.udap.fhirBaseUrl,
        clientId: registration.client_id,
        privateKey: world.udapCertificate.privateKeyPem,
        certificateChain: world.udapCertificate.chainDer,
        scopes: ['system/*.rs'],
        allowInsecureLocalhost: true,
      },
      { protocol: 'udap' },
    )
    const refused = await context.refusal(
      'client.requestBackendToken({ b2b, trustedAnchors, crls })',
      () => stale.requestBackendToken({ b2b: demoB2bExtension, ...world.udapTrust }),
      (exchange) =>
        exchange.url.includes('/token')
          ? { hideRequestDetails: true, purpose: 'form as in section 10' }
          : {},
    )
    context.check(
      refused instanceof TokenError && refused.error === 'invalid_client',
      'refused with invalid_client: the registration is gone',
      `expected invalid_client, got ${refused.name}`,
    )
  },
}
