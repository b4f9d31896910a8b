import type { TransportOptions } from '@fhir-auth/core'
import {
  buildAuthorizationRequest,
  discoverSmartConfiguration,
  exchangeAuthorizationCode,
  refreshAccessToken,
  requireDiscoveredEndpoint,
  type TokenResponse,
} from '@fhir-auth/smart'

const fhirBaseUrl = 'https://fhir.example.org/r4'
const clientId = 'my-app'
const redirectUri = 'https://app.example.org/callback'

/**
 * Discovery, then the authorization request. `transport` carries `fetch`, `timeoutMs`,
 * `signal`, … to every request. Keep `state`, `codeVerifier` and `tokenEndpoint` in the
 * session and redirect to `authUrl` (with `method: 'post'`, POST `params` there as a form).
 */
export async function beginAuthorization(launch: string, transport: TransportOptions = {}) {
  const metadata = await discoverSmartConfiguration({ baseUrl: fhirBaseUrl, ...transport })
  const { authUrl, state, codeVerifier } = await buildAuthorizationRequest({
    // Throws a DiscoveryError when the server's value is missing or not HTTPS.
    authorizationEndpoint: requireDiscoveredEndpoint(metadata, 'authorization_endpoint', false),
    clientId,
    redirectUri,
    scopes: ['launch', 'openid', 'fhirUser', 'patient/*.rs', 'offline_access'],
    audience: fhirBaseUrl, // sent as `aud`
    launch, // EHR launch only
  })
  const tokenEndpoint = requireDiscoveredEndpoint(metadata, 'token_endpoint', false)
  return { authUrl, state, codeVerifier, tokenEndpoint }
}

/** On the callback, after checking that its `state` equals the stored one. */
export async function completeAuthorization(
  session: { readonly codeVerifier: string; readonly tokenEndpoint: string },
  code: string,
  transport: TransportOptions = {},
): Promise<TokenResponse> {
  return exchangeAuthorizationCode({
    tokenEndpoint: session.tokenEndpoint,
    code,
    codeVerifier: session.codeVerifier,
    redirectUri,
    clientAuthentication: { type: 'public', clientId },
    ...transport,
  })
}

/** A new access token; store `refresh_token` of the result (rotated, or the one sent). */
export async function refresh(
  tokenEndpoint: string,
  refreshToken: string,
  transport: TransportOptions = {},
): Promise<TokenResponse> {
  return refreshAccessToken({
    tokenEndpoint,
    refreshToken,
    clientAuthentication: { type: 'public', clientId },
    ...transport,
  })
}
