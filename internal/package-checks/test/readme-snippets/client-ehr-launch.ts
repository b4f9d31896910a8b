import { Client, type ClientOptions, type TokenResponse } from '@fhir-auth/client'

/** One client per authorization server. Construction does no I/O. */
export function createEhrClient(options?: ClientOptions): Client {
  return new Client(
    {
      baseUrl: 'https://ehr.example.org/fhir',
      clientId: 'my-app',
      redirectUri: 'https://app.example.org/callback',
      scopes: ['launch', 'openid', 'fhirUser', 'patient/*.rs', 'offline_access'],
    },
    options, // e.g. { logger: console, timeoutMs: 5_000 }
  )
}

/** What to keep in the user's server-side session between the two steps. */
export interface PendingLaunch {
  readonly state: string
  readonly codeVerifier: string
}

/** Step 1, on `/launch?iss=…&launch=…`: discover the server, then send the browser there. */
export async function startLaunch(client: Client, launch: string) {
  const { authUrl, state, codeVerifier } = await client.authorizationUrl({ launch })
  const pending: PendingLaunch = { state, codeVerifier }
  return { redirectTo: authUrl, pending }
}

/** Step 2, on `/callback?code=…&state=…`: check `state`, then exchange the code. */
export async function finishLaunch(
  client: Client,
  callbackUrl: string,
  pending: PendingLaunch,
): Promise<TokenResponse> {
  const parameters = new URL(callbackUrl).searchParams
  const code = parameters.get('code')
  if (code === null || parameters.get('state') !== pending.state) {
    throw new Error('this callback does not belong to the pending launch')
  }
  const tokens = await client.requestAccessToken({ code, codeVerifier: pending.codeVerifier })
  // tokens.access_token, tokens.patient, tokens.id_token, … exactly as the server sent them
  return tokens
}

/** Later: a fresh access token (the grant included `offline_access`). */
export async function renewTokens(client: Client, tokens: TokenResponse): Promise<TokenResponse> {
  return client.refreshToken({ refreshToken: String(tokens.refresh_token) })
}
