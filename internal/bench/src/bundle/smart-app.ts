/**
 * The SMART-only browser app the bundle figure measures: a public client doing a standalone
 * launch (authorization URL by GET and by POST), the code exchange and a refresh. Bundled with
 * esbuild, never run; it type-checks with the package so it follows the API.
 */
import { Client } from '@fhir-auth/client'

const client = new Client({
  baseUrl: 'https://ehr.example.org/fhir',
  clientId: 'bench-app',
  redirectUri: 'https://app.example.org/callback',
  scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser', 'offline_access'],
})

/** Redirects the user to the authorization server (GET). */
export async function launchWithRedirect(): Promise<{ state: string; codeVerifier: string }> {
  const { authUrl, state, codeVerifier } = await client.authorizationUrl()
  globalThis.location.assign(authUrl)
  return { state, codeVerifier }
}

/** Builds the authorize-POST form instead (SMART `authorize-post`). */
export async function launchWithPost(): Promise<Readonly<Record<string, string>> | undefined> {
  const { params } = await client.authorizationUrl({ method: 'post' })
  return params
}

/** Handles the redirect back: exchanges the code for tokens. */
export async function completeLaunch(code: string, codeVerifier: string): Promise<string> {
  const tokens = await client.requestAccessToken({ code, codeVerifier })
  return tokens.access_token
}

/** Refreshes the access token before it expires. */
export async function refresh(refreshToken: string): Promise<string> {
  const tokens = await client.refreshToken({ refreshToken })
  return tokens.access_token
}
