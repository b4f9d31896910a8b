import type { AuthorizationCodes } from './authorization-codes.js'
import { checkCodeFlowExtensions } from './code-flow-extensions.js'
import { verifiesS256Challenge } from './pkce.js'
import { refuse, type TokenRejection } from './token-rejection.js'
import type { TokenResponseBody } from './token-response.js'
import { issueUserTokens, isTieredIdentityGrant, type UserTokenContext } from './user-tokens.js'

/** What the authorization_code grant needs. */
export interface AuthorizationCodeContext extends UserTokenContext {
  readonly codes: AuthorizationCodes
  readonly extensionsPolicy: 'refuse' | 'ignore'
  /** Whether refresh tokens exist on this server (`refresh_token` among its grant types). */
  readonly refreshSupported: boolean
}

/** The authenticated client of an authorization_code request. */
export interface CodeClient {
  readonly clientId: string
  /** The client registered the `refresh_token` grant. */
  readonly mayRefresh: boolean
}

/**
 * The authorization_code grant (IG STU2 §4.1.3, §5.1.3, §7.2) after client authentication, in
 * this order: no `extensions` in the AnT (see `checkCodeFlowExtensions`); the `code` is
 * known, unexpired and unused (a second use also revokes every token issued from it) and was
 * issued to this client; `redirect_uri` is present and identical exactly when the
 * authorization request had one; the PKCE `code_verifier` matches the S256 challenge
 * (RFC 7636 §4.6). All `invalid_grant`, except a `redirect_uri` the authorization request
 * did not have (`invalid_request`). A code is spent by its first presentation, whatever
 * follows.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#token-request
 */
export async function grantAuthorizationCode(
  form: URLSearchParams,
  claims: Readonly<Record<string, unknown>>,
  client: CodeClient,
  context: AuthorizationCodeContext,
): Promise<TokenResponseBody | TokenRejection> {
  const extensions = checkCodeFlowExtensions(claims, context.extensionsPolicy)
  if (extensions !== undefined) return extensions
  const redemption = context.codes.redeem(form.get('code') ?? '')
  switch (redemption.status) {
    case 'unknown':
      return refuse('code', 'invalid_grant', 'code is unknown')
    case 'expired':
      return refuse('code', 'invalid_grant', 'code has expired')
    case 'replayed':
      if (redemption.grantId !== undefined) context.tokens.revokeGrant(redemption.grantId)
      return refuse(
        'code',
        'invalid_grant',
        'code was already used; the tokens issued for it are revoked',
      )
    case 'valid':
      break
  }
  const { grant } = redemption
  if (grant.clientId !== client.clientId) {
    return refuse('code', 'invalid_grant', 'code was issued to another client')
  }
  const redirectUri = form.get('redirect_uri')
  if (grant.redirectUriSent && redirectUri !== grant.redirectUri) {
    return refuse(
      'redirect-uri',
      'invalid_grant',
      'redirect_uri must be identical to the one of the authorization request',
    )
  }
  if (!grant.redirectUriSent && redirectUri !== null) {
    return refuse(
      'redirect-uri',
      'invalid_request',
      'redirect_uri must be omitted: the authorization request had none (IG STU2 §4.1.3)',
    )
  }
  if (!verifiesS256Challenge(form.get('code_verifier') ?? '', grant.codeChallenge)) {
    return refuse(
      'code-verifier',
      'invalid_grant',
      'code_verifier does not match the code_challenge (S256)',
    )
  }
  const userGrant = context.tokens.createGrant({
    clientId: grant.clientId,
    scopes: grant.scopes,
    user: grant.user,
    refreshable:
      context.refreshSupported &&
      client.mayRefresh &&
      !isTieredIdentityGrant(context.identityProvider, grant.scopes),
  })
  redemption.markIssued(userGrant.id)
  return issueUserTokens(
    {
      grantType: 'authorization_code',
      grant: userGrant,
      scopes: grant.scopes,
      ...(grant.scopes.includes('openid')
        ? { idToken: { nonce: grant.nonce, authTime: grant.authTime } }
        : {}),
    },
    context,
  )
}
