/** Section 12: a consumer-facing UDAP app (flow b2c): authorization code, ID token, refresh. */
import { ConfigurationError, memoryStore } from '@fhir-auth/client'
import { fingerprint } from '../display-values.js'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld } from '../sandbox-world.js'
import { beginAndSignIn, codeTokenFields, completeSignIn } from '../sign-in-steps.js'
import { type AppIdentity, createAppClient, registerApp } from './udap-app-identity.js'

const consumerApp: AppIdentity = {
  clientUri: 'https://demo-app.example.test/consumer',
  commonName: 'fhir-auth demo consumer app',
  keyType: 'p256',
  flow: 'b2c',
  redirectUri,
  scopes: ['openid', 'fhirUser', 'user/*.rs'],
  registeredScope: 'openid fhirUser user/*.rs',
  grantTypes: ['authorization_code', 'refresh_token'],
}

/**
 * Registers for the authorization code with refresh (redirect URI and logo required, response
 * type `code` set by the library), begins with the signed authorization endpoint (state, PKCE
 * S256, nonce; no `aud`, no `launch`), completes with a UDAP authentication token, checks the ID
 * token, reads FHIR through the session and refreshes with a fresh authentication token. A
 * consumer app has no client credentials: the library refuses them before any request.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html
 */
export const udapConsumerAppFlow: Flow<SandboxWorld> = {
  title: 'UDAP consumer app (b2c): authorization code, ID token, session with refresh',
  async run(context, world) {
    const { dataHolder } = world.tiered
    const client = await createAppClient(context, dataHolder, consumerApp)
    const registration = await registerApp(context, dataHolder, client, consumerApp)
    context.check(
      JSON.stringify(registration.response_types) === '["code"]',
      `registered for the authorization code with refresh: client_id ${registration.client_id}`,
      'the registration does not carry response_types ["code"]',
    )
    const store = memoryStore()
    const signIn = await beginAndSignIn(
      context,
      dataHolder,
      client,
      { store },
      'the user signs in and approves',
    )
    const session = await completeSignIn(context, client, signIn, store)
    const claims = session.tokens.idTokenClaims
    context.check(
      claims?.iss === dataHolder.issuer &&
        claims.aud === registration.client_id &&
        claims.nonce === signIn.parameters.nonce,
      `ID token verified with the server's key: iss ${String(claims?.iss)}, sub ${String(claims?.sub)}, aud = client_id, nonce = the one sent`,
      'the ID token claims are not those of this sign-in',
    )
    const patient = await context.call("session.fetch('Patient/patient-1')", () =>
      session.fetch('Patient/patient-1'),
    )
    context.check(
      patient.status === 200,
      'the FHIR server accepted the session’s token (Authorization: Bearer added by session.fetch)',
      `reading Patient/patient-1 gave HTTP ${patient.status}`,
    )
    const first = session.tokens.refreshToken ?? ''
    const refreshed = await context.call('session.refresh()', () => session.refresh(), {
      responseFields: codeTokenFields,
    })
    const next = refreshed.refreshToken ?? ''
    context.check(
      next !== '' && next !== first,
      `refreshed with a new authentication token: refresh token #${fingerprint(next)} replaces #${fingerprint(first)}`,
      'the refresh did not rotate the refresh token',
    )
    const requestsBefore = dataHolder.requestCounts.token
    const refused = await context.refusal('client.requestBackendToken()', () =>
      client.requestBackendToken(),
    )
    context.check(
      refused instanceof ConfigurationError &&
        refused.invalidAttribute === 'flow' &&
        dataHolder.requestCounts.token === requestsBefore,
      'a b2c client has no client credentials: ConfigurationError on flow, nothing sent',
      `expected a ConfigurationError on flow, got ${refused.name}`,
    )
  },
}
