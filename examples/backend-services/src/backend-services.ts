import { Client, type ClientOptions } from '@fhir-auth/client'
import { readFhirResource } from './fhir-read.js'
import type { BackendServicesSettings } from './settings.js'

/** What the script found: a summary of the token (never the token itself) and the resource. */
export interface BackendServicesResult {
  readonly grantedScope: string
  readonly expiresInSeconds: number | undefined
  readonly resource: Record<string, unknown>
}

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
 * Gets an access token with the client-credentials grant (the library discovers the token
 * endpoint, signs the client assertion and posts it), then reads one FHIR resource with it.
 *
 * A long-running service would keep the `Client` and reuse a token until shortly before
 * `expires_in` runs out; Backend Services issues no refresh tokens, so it asks for a new one.
 *
 * @throws DiscoveryError / TokenError from the library, FhirReadError from the FHIR read.
 */
export async function readWithBackendToken(
  client: Client,
  settings: BackendServicesSettings,
): Promise<BackendServicesResult> {
  const token = await client.requestBackendToken({ scopes: settings.scopes })
  const resource = await readFhirResource({
    fhirBaseUrl: settings.fhirBaseUrl,
    path: settings.resourcePath,
    accessToken: token.access_token,
  })
  return {
    grantedScope: typeof token.scope === 'string' ? token.scope : '',
    expiresInSeconds: typeof token.expires_in === 'number' ? token.expires_in : undefined,
    resource,
  }
}
