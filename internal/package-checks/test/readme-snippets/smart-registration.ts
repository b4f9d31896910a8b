import type { TransportOptions } from '@fhir-auth/core'
import { registerSmartClient } from '@fhir-auth/smart'

/** RFC 7591 dynamic registration; a registration endpoint that is not HTTPS is refused. */
export async function registerApp(
  registrationEndpoint: string,
  initialAccessToken: string,
  transport: TransportOptions = {},
) {
  const registration = await registerSmartClient({
    registrationEndpoint,
    metadata: {
      client_name: 'My App',
      redirect_uris: ['https://app.example.org/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid fhirUser launch patient/*.rs',
    },
    authorization: `Bearer ${initialAccessToken}`, // optional, sent as the Authorization header
    ...transport,
  })
  // Store client_id durably, and client_secret when the server issued one.
  return { clientId: registration.client_id, clientSecret: registration.client_secret }
}
