/** Section 10: a UDAP client-credentials token with the hl7-b2b extension. */
import type { B2bAuthorizationExtension } from '@fhir-auth/client'
import type { Flow } from '../flow.js'
import { handoff, type SandboxWorld } from '../sandbox-world.js'

/** Who asks, and why: the sandbox requires `hl7-b2b` on every token request. */
export const demoB2bExtension: B2bAuthorizationExtension = {
  organizationId: 'https://demo-org.example.test/organization',
  organizationName: 'fhir-auth Demo Clinic',
  purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
}

/**
 * The registered client requests a token with a UDAP authentication token: `iss = sub =
 * client_id`, `x5c` with its certificate chain, and `extensions.hl7-b2b`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#obtaining-an-access-token
 */
export const udapB2bTokenFlow: Flow<SandboxWorld> = {
  title: 'UDAP client_credentials token with hl7-b2b',
  async run(context, world) {
    const client = handoff(world.handoffs.udapClient, 'section 8 (UDAP discovery)')
    const registration = handoff(world.handoffs.udapRegistration, 'section 9 (UDAP registration)')
    const token = await context.call(
      'client.requestBackendToken({ b2b: { organizationId, organizationName, purposeOfUse } })',
      () => client.requestBackendToken({ b2b: demoB2bExtension }),
      { responseFields: ['access_token', 'token_type', 'expires_in', 'scope'] },
    )
    context.check(
      token.token_type === 'Bearer',
      `token for client_id ${registration.client_id}: scope "${String(token.scope)}", expires in ${String(token.expires_in)} s`,
      `unexpected token_type ${String(token.token_type)}`,
    )
  },
}
