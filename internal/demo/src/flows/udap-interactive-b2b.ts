/** Section 13: an interactive B2B app (flow b2b) with the authorization code, by POST. */

import { showAuthorizationRequest, showRedirect, userAgentRequest } from '../authorization-steps.js'
import { DemoFailure } from '../demo-failure.js'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld } from '../sandbox-world.js'
import { callbackChecked, codeTokenFields } from '../sign-in-steps.js'
import { type AppIdentity, createAppClient, registerApp } from './udap-app-identity.js'

const businessApp: AppIdentity = {
  clientUri: 'https://demo-app.example.test/clinic-portal',
  commonName: 'fhir-auth demo clinic portal',
  keyType: 'p384',
  flow: 'b2b',
  redirectUri,
  scopes: ['user/*.rs'],
  registeredScope: 'user/*.rs',
  grantTypes: ['authorization_code'],
}

/**
 * A person at a business app (a clinic portal) signs in: the same authorization code as a
 * consumer app, by authorize-POST here, with the caller keeping `state` and the verifier
 * (`authorizationUrl`, then `completeAuthorization` with them, which checks the callback). Its
 * authentication token carries no `extensions` (hl7-b2b belongs to client credentials, section
 * 10), and it signs with ES384 (a P-384 key).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html
 */
export const udapInteractiveB2bFlow: Flow<SandboxWorld> = {
  title: 'UDAP interactive B2B (b2b): a user of a business app, authorize-POST',
  async run(context, world) {
    const { dataHolder } = world.tiered
    const client = await createAppClient(context, dataHolder, businessApp)
    await registerApp(context, dataHolder, client, businessApp)
    const request = await context.call("client.authorizationUrl({ method: 'post' })", () =>
      client.authorizationUrl({ method: 'post' }),
    )
    context.ledger.add('state', request.state)
    context.ledger.add('PKCE code verifier', request.codeVerifier)
    showAuthorizationRequest(context.transcript, request)
    context.transcript.call(
      'sandbox.authorize(…): the user signs in and approves (headless browser)',
    )
    const result = await dataHolder.authorize(userAgentRequest(request))
    const callbackUrl = result.redirectUrl
    if (callbackUrl === undefined) throw new DemoFailure(`no redirect: ${result.error ?? '?'}`)
    if (result.code !== undefined) context.ledger.add('authorization code', result.code)
    showRedirect(context.transcript, result)
    // The library checks the callback against the state the app kept, and only then exchanges
    // the code: the app compares nothing by hand.
    const session = await context.call(
      'client.completeAuthorization(callbackUrl, { state, codeVerifier })',
      () =>
        client.completeAuthorization(callbackUrl, {
          state: request.state,
          codeVerifier: request.codeVerifier,
        }),
      { responseFields: codeTokenFields },
    )
    context.transcript.ok(callbackChecked)
    const token = session.tokens.raw
    context.check(
      token.token_type === 'Bearer' && token.refresh_token === undefined,
      `token for scope "${String(token.scope)}", no refresh token (none registered); the authentication token had no extensions`,
      'unexpected token response',
    )
  },
}
