/** Section 13: an interactive B2B app (flow b2b) with the authorization code, by POST. */

import { showAuthorizationRequest, showRedirect, userAgentRequest } from '../authorization-steps.js'
import { DemoFailure } from '../demo-failure.js'
import type { Flow } from '../flow.js'
import { redirectUri, type SandboxWorld } from '../sandbox-world.js'
import { codeTokenFields } from '../sign-in-steps.js'
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
 * consumer app, by authorize-POST here, with the spec's two steps (`authorizationUrl`, then
 * `requestAccessToken`) and the caller keeping `state` and the verifier. Its authentication token
 * carries no `extensions` (hl7-b2b belongs to client credentials, section 10), and it signs with
 * ES384 (a P-384 key).
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
    if (result.code === undefined) throw new DemoFailure(`no code: ${result.error ?? '?'}`)
    context.ledger.add('authorization code', result.code)
    showRedirect(context.transcript, result)
    context.check(
      result.state === request.state,
      'state in the redirect equals the state the app kept (CSRF check)',
      'the redirect carries another state',
    )
    const token = await context.call(
      'client.requestAccessToken({ code, codeVerifier })',
      () =>
        client.requestAccessToken({
          code: result.code as string,
          codeVerifier: request.codeVerifier,
        }),
      { responseFields: codeTokenFields },
    )
    context.check(
      token.token_type === 'Bearer' && token.refresh_token === undefined,
      `token for scope "${String(token.scope)}", no refresh token (none registered); the authentication token had no extensions`,
      'unexpected token response',
    )
  },
}
