/** Section 3: an EHR launch with authorize-POST. */
import { memoryStore } from '@fhir-auth/client'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld, smartClientIds } from '../sandbox-world.js'
import { beginAndSignIn, completeSignIn } from '../sign-in-steps.js'

const launchPatient = 'patient-ehr-42'
const launchEncounter = 'encounter-7'

/**
 * The EHR opens the app with `launch` and `iss`; the app sends the authorization request as a
 * form POST (`authorize-post`) and gets the EHR's patient and encounter with the token.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#launch-app-ehr-launch
 */
export const ehrLaunchFlow: Flow<SandboxWorld> = {
  title: 'EHR launch: launch context, authorization by form POST',
  async run(context, world) {
    const { transcript } = context
    transcript.call(
      `sandbox.createLaunch({ patient: '${launchPatient}', encounter: '${launchEncounter}' })`,
    )
    const launch = world.smart.createLaunch({ patient: launchPatient, encounter: launchEncounter })
    transcript.note('the EHR opens the app at its launch URL with these parameters:')
    transcript.rows([
      { name: 'iss', value: world.smart.fhirBaseUrl },
      { name: 'launch', value: launch },
    ])
    const client = context.createClient({
      baseUrl: world.smart.fhirBaseUrl,
      clientId: smartClientIds.public,
      redirectUri,
      scopes: ['launch', 'patient/*.rs', 'openid', 'fhirUser'],
      allowInsecureLocalhost: true,
    })
    const store = memoryStore()
    const signIn = await beginAndSignIn(
      context,
      world.smart,
      client,
      { store, launch, method: 'post' },
      'the user signs in and approves',
    )
    const session = await completeSignIn(context, client, signIn, store, [
      'access_token',
      'token_type',
      'scope',
      'patient',
      'encounter',
      'need_patient_banner',
    ])
    const token = session.tokens
    context.check(
      token.patient === launchPatient && token.encounter === launchEncounter,
      `launch context from the EHR: patient ${launchPatient}, encounter ${launchEncounter}`,
      `expected patient ${launchPatient} and encounter ${launchEncounter} in the token response`,
    )
  },
}
