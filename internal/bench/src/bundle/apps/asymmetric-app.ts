/**
 * The asymmetric SMART browser app the bundle figures measure (issue 16): a
 * `confidential_asymmetric` client with an ES384 private JWK that runs `authorizationUrl` →
 * `requestAccessToken` → `refreshToken` → `requestBackendToken`, every token request
 * authenticated with a signed client assertion. Bundled with esbuild and run in Chromium
 * against the fake EHR; it type-checks with the package, so it follows the API.
 */
import { Client, type Jwk } from '@fhir-auth/client'
import { type AppHarness, fakeEhr } from './app-harness.js'

/** What the run saw, for the harness to check that every flow really happened. */
export interface AsymmetricAppRun {
  readonly accessToken: string
  readonly refreshedAccessToken: string
  readonly backendAccessToken: string
}

export async function runAsymmetricApp(
  harness: AppHarness,
  privateKey: Jwk,
): Promise<AsymmetricAppRun> {
  const client = new Client(
    {
      ...fakeEhr,
      scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
      privateKey,
      kid: 'bench-es384',
    },
    { clientType: 'confidential_asymmetric', fetch: harness.fetch },
  )
  const { authUrl, codeVerifier } = await client.authorizationUrl()
  const callback = new URL(await harness.authorize(authUrl))
  const code = callback.searchParams.get('code') ?? ''
  const tokens = await client.requestAccessToken({ code, codeVerifier })
  const refreshed = await client.refreshToken({ refreshToken: tokens.refresh_token ?? '' })
  const backend = await client.requestBackendToken({ scopes: ['system/Patient.rs'] })
  return {
    accessToken: tokens.access_token,
    refreshedAccessToken: refreshed.access_token,
    backendAccessToken: backend.access_token,
  }
}
