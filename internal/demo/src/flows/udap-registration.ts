/** Section 9: UDAP dynamic registration and modification. */
import type { Flow } from '../flow.js'
import { handoff, type SandboxWorld, udapClientUri } from '../sandbox-world.js'

/** The demo client's registration metadata (the software statement's registration claims). */
export const udapRegistrationMetadata = {
  client_name: 'fhir-auth demo app',
  contacts: ['mailto:demo@example.test'],
  grant_types: ['client_credentials'],
  scope: 'system/*.rs',
} as const

/** The modification: a new name and one more scope, same certificate SAN, so same client. */
export const udapModifiedMetadata = {
  ...udapRegistrationMetadata,
  client_name: 'fhir-auth demo app (renamed)',
  scope: 'system/*.rs system/*.read',
} as const

/** A cancellation's claims: the library adds `grant_types: []` itself. */
export const udapCancellationMetadata = {
  client_name: udapModifiedMetadata.client_name,
  contacts: udapModifiedMetadata.contacts,
  scope: udapModifiedMetadata.scope,
} as const

const registrationFields = [
  'client_id',
  'client_name',
  'grant_types',
  'scope',
  'token_endpoint_auth_method',
]

/**
 * Registers with a software statement signed by the client's certificate key, then registers
 * again with changed metadata: the server modifies the registration (200, same `client_id`).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
 */
export const udapRegistrationFlow: Flow<SandboxWorld> = {
  title: 'UDAP registration with a software statement, then a modification',
  async run(context, world) {
    const client = handoff(world.handoffs.udapClient, 'section 8 (UDAP discovery)')
    const options = { clientUri: udapClientUri, ...world.udapTrust }
    const registration = await context.call(
      'client.registerClient(metadata, { clientUri, trustedAnchors, crls })',
      () => client.registerClient(udapRegistrationMetadata, options),
      { responseFields: registrationFields },
    )
    context.check(
      context.lastStatus() === 201,
      `registered (201): client_id ${registration.client_id}`,
      `expected 201 Created for a new registration, got ${String(context.lastStatus())}`,
    )
    context.transcript.note('registering again from the same client URI modifies the registration:')
    const modified = await context.call(
      "client.registerClient({ …metadata, client_name: '… (renamed)', scope: 'system/*.rs system/*.read' }, options)",
      () => client.registerClient(udapModifiedMetadata, options),
      {
        responseFields: registrationFields,
        hideRequestDetails: true,
        purpose: 'JSON: a new software statement (new name and scope, new iat, exp and jti)',
      },
    )
    context.check(
      context.lastStatus() === 200 && modified.client_id === registration.client_id,
      `modified (200): same client_id ${modified.client_id}, scope "${String(modified.scope)}"`,
      'the modification did not keep the client_id',
    )
    world.handoffs.udapRegistration = modified
  },
}
