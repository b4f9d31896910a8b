import { idTokenClaims } from './id-token-signer.js'
import type { TokenResponseBody } from './token-response.js'
import type { TokenStore, UserGrant } from './token-store.js'

/** The longest access token an IdP may issue in Tiered OAuth (udap.org Tiered OAuth §4.3). */
export const identityProviderAccessTokenSeconds = 300

/** What issuing tokens for a user grant needs. */
export interface UserTokenContext {
  readonly issuer: string
  readonly fhirBaseUrl: string
  readonly tokens: TokenStore
  readonly accessTokenLifetimeSeconds: number
  readonly identityProvider: boolean
  readonly now: () => Date
  /** Signs ID token claims (RS256 with the server key). */
  readonly signIdToken: (claims: Readonly<Record<string, unknown>>) => Promise<string>
  /** The active ID token falsification (hostile variants). */
  readonly falsifyIdToken: () => 'nonce' | 'aud' | undefined
}

/** What the tokens are issued for. */
export interface UserTokenRequest {
  readonly grantType: 'authorization_code' | 'refresh_token'
  readonly grant: UserGrant
  /** The scopes of this response (a refresh may narrow them). */
  readonly scopes: readonly string[]
  /** Issue an ID token (code exchange with `openid`); refreshes do not. */
  readonly idToken?: { readonly nonce: string | undefined; readonly authTime: number }
}

/**
 * Whether an IdP grant must stay short and without refresh token: the IdP role and the
 * `udap` scope (Tiered OAuth, udap.org §4.3: "The IdP MUST NOT issue a refresh token").
 */
export function isTieredIdentityGrant(
  identityProvider: boolean,
  scopes: readonly string[],
): boolean {
  return identityProvider && scopes.includes('udap')
}

/**
 * The token response for a user grant: a Bearer access token (at most
 * {@link identityProviderAccessTokenSeconds} for a Tiered OAuth IdP grant), a fresh refresh
 * token when the grant is refreshable, and an ID token when asked.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export async function issueUserTokens(
  request: UserTokenRequest,
  context: UserTokenContext,
): Promise<TokenResponseBody> {
  const { grant } = request
  const lifetimeSeconds = isTieredIdentityGrant(context.identityProvider, grant.scopes)
    ? Math.min(context.accessTokenLifetimeSeconds, identityProviderAccessTokenSeconds)
    : context.accessTokenLifetimeSeconds
  const scope = request.scopes.join(' ')
  const accessToken = context.tokens.issueAccessToken({
    clientId: grant.clientId,
    unregistered: false,
    scope,
    grantType: request.grantType,
    grant,
    lifetimeSeconds,
  })
  const idToken =
    request.idToken === undefined
      ? undefined
      : await context.signIdToken(
          idTokenClaims({
            issuer: context.issuer,
            fhirBaseUrl: context.fhirBaseUrl,
            clientId: grant.clientId,
            user: grant.user,
            scopes: request.scopes,
            nonce: request.idToken.nonce,
            authTime: request.idToken.authTime,
            now: context.now(),
            falsify: context.falsifyIdToken(),
          }),
        )
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: lifetimeSeconds,
    scope,
    ...(grant.refreshable ? { refresh_token: context.tokens.issueRefreshToken(grant) } : {}),
    ...(idToken === undefined ? {} : { id_token: idToken }),
  }
}
