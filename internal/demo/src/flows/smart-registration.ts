/** Section 7: SMART dynamic client registration (RFC 7591). */
import type { Flow } from '../flow.js'
import type { SandboxWorld } from '../sandbox-world.js'

/**
 * Registers a new backend client with the server's initial access token, then uses the
 * `client_id` it got for a backend services token.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3
 */
export const smartRegistrationFlow: Flow<SandboxWorld> = {
  title: 'SMART dynamic registration with an initial access token',
  async run(context, world) {
    const { rs384 } = world.keys
    const client = context.createClient({
      baseUrl: world.smart.fhirBaseUrl,
      allowInsecureLocalhost: true,
    })
    const metadata = {
      client_name: 'fhir-auth demo backend (registered at run time)',
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      scope: 'system/*.rs',
      jwks: { keys: [rs384.publicJwk] },
    }
    const registration = await context.call(
      "client.registerClient(metadata, { authorization: 'Bearer <initial access token>' })",
      () =>
        client.registerClient(metadata, {
          authorization: `Bearer ${world.smart.initialAccessToken}`,
        }),
      {
        responseFields: [
          'client_id',
          'client_name',
          'grant_types',
          'token_endpoint_auth_method',
          'scope',
        ],
      },
    )
    context.check(
      registration.client_id.length > 0,
      `registered: client_id ${registration.client_id}`,
      'the registration response has no client_id',
    )
    const registered = context.createClient(
      {
        baseUrl: world.smart.fhirBaseUrl,
        clientId: registration.client_id,
        privateKey: rs384.privateKeyPem,
        kid: rs384.kid,
        scopes: ['system/*.rs'],
        allowInsecureLocalhost: true,
      },
      { clientType: 'confidential_asymmetric' },
    )
    const token = await context.call(
      'client.requestBackendToken()',
      () => registered.requestBackendToken(),
      { responseFields: ['access_token', 'token_type', 'expires_in', 'scope'] },
    )
    context.check(
      token.token_type === 'Bearer',
      `the new client got a token at once (RS384 assertion, scope "${String(token.scope)}")`,
      `the new client got token_type ${String(token.token_type)}`,
    )
  },
}
