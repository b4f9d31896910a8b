import {
  type BackendTokens,
  Client,
  type ClientOptions,
  type KeyValueStore,
} from '@fhir-auth/client'
import type { BackendServicesSettings } from './settings.js'

/**
 * Builds the `Client` for a SMART Backend Services client. `confidential_asymmetric` is the
 * only client type Backend Services allows: the client proves its identity with a JWT signed
 * by its private key (`private_key_jwt`), never with a shared secret.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html
 */
export function createBackendClient(
  settings: BackendServicesSettings,
  options: Omit<ClientOptions, 'clientType'> = {},
): Client {
  return new Client(
    {
      baseUrl: settings.fhirBaseUrl,
      clientId: settings.clientId,
      privateKey: settings.privateKeyPem,
      kid: settings.kid,
      scopes: [...settings.scopes],
      allowInsecureLocalhost: settings.allowInsecureLocalhost,
    },
    { ...options, clientType: 'confidential_asymmetric' },
  )
}

/**
 * Access tokens for the service, reused until shortly before they expire (60 s by default):
 * the first call asks the token endpoint (the library discovers it, signs the client
 * assertion and posts it), every later call gets the same token, and concurrent calls share
 * one request. Backend Services issues no refresh token: near expiry the next call asks again.
 *
 * Without a store the token lives in this process. With a shared store (`redisStore`) every
 * process of the service shares it: one token request per expiry window for the whole fleet.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/backend-services-at-scale.md
 */
export function serviceTokens(
  client: Client,
  settings: BackendServicesSettings,
  store?: KeyValueStore,
): BackendTokens {
  return client.backendTokens({ scopes: settings.scopes, store })
}
