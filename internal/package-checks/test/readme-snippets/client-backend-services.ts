import { Client, type ClientOptions, TokenError, type TokenResponse } from '@fhir-auth/client'

/**
 * A SMART Backend Services client: no user, no redirect. It authenticates with a JWT signed by
 * its private key (RSA → RS384, P-384 → ES384), whose public key the server has registered
 * under `kid`.
 */
export function createBackendClient(privateKeyPem: string, options?: ClientOptions): Client {
  return new Client(
    {
      baseUrl: 'https://ehr.example.org/fhir',
      clientId: 'my-backend-service',
      scopes: ['system/Patient.rs', 'system/Observation.rs'],
      privateKey: privateKeyPem, // PEM, JWK, CryptoKey, KeyObject or your own JwsSigner
      kid: 'backend-key-2026',
    },
    { ...options, clientType: 'confidential_asymmetric' },
  )
}

/** A token for the configured scopes, or `undefined` when the server refuses. */
export async function backendToken(client: Client): Promise<TokenResponse | undefined> {
  try {
    return await client.requestBackendToken()
  } catch (error) {
    // TokenError carries the server's OAuth error; no message ever contains a key or token.
    // isInstance, unlike instanceof, also holds for an error of a second installed copy.
    if (TokenError.isInstance(error)) return undefined
    throw error
  }
}
