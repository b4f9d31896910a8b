/** Section 2: a standalone launch by a public client. */

import { memoryStore } from '@fhir-auth/client'
import { DemoFailure } from '../demo-failure.js'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld, smartClientIds } from '../sandbox-world.js'
import { beginAndSignIn, completeSignIn } from '../sign-in-steps.js'
import { readPatient } from './fhir-read.js'

/**
 * `beginAuthorization` keeps the launch in a store → authorization request (GET) → the user
 * approves → `completeAuthorization` checks the callback and exchanges the code with PKCE → a FHIR
 * read of the patient the user picked. Asks for `offline_access`, so section 5 can refresh.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-standalone-launch
 */
export const standaloneLaunchFlow: Flow<SandboxWorld> = {
  title: 'Standalone launch: public client, authorization by GET redirect',
  async run(context, world) {
    const client = context.createClient({
      baseUrl: world.smart.fhirBaseUrl,
      clientId: smartClientIds.public,
      redirectUri,
      scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
      allowInsecureLocalhost: true,
    })
    const store = memoryStore()
    const signIn = await beginAndSignIn(
      context,
      world.smart,
      client,
      { store },
      'the user signs in and approves',
    )
    const session = await completeSignIn(context, client, signIn, store)
    const token = session.tokens.raw
    const patient = token.patient
    if (typeof patient !== 'string') throw new DemoFailure('the token response has no patient')
    context.check(
      typeof token.refresh_token === 'string',
      `token for patient ${patient}, scope "${String(token.scope)}", expires in ${String(token.expires_in)} s, with a refresh token (offline_access)`,
      'the token response has no refresh_token although offline_access was granted',
    )
    world.handoffs.standalone = { client, token }
    await readPatient(context, world.smart.fhirBaseUrl, patient, session.tokens.accessToken)
  },
}
