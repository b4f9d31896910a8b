import { splitScopes } from '../smart/smart-scopes.js'
import { checkCodeFlowExtensions } from './code-flow-extensions.js'
import { refuse, type TokenRejection } from './token-rejection.js'
import type { TokenResponseBody } from './token-response.js'
import { issueUserTokens, type UserTokenContext } from './user-tokens.js'

/** What the refresh_token grant needs. */
export interface RefreshTokenContext extends UserTokenContext {
  readonly extensionsPolicy: 'refuse' | 'ignore'
}

/**
 * The refresh_token grant (IG STU2 §4.3, §5.5; RFC 6749 §6) after client authentication with
 * the same AnT rules as the code exchange: no `extensions`; the refresh token is one this
 * server issued to this client, current (an already rotated one revokes its grant:
 * `invalid_grant`); `scope`, when sent, within the original grant (`invalid_scope`). Tokens are
 * rotated: the response carries a new refresh token and the old one stops working. No ID token.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#refresh-token-workflow
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2
 */
export async function grantRefreshToken(
  form: URLSearchParams,
  claims: Readonly<Record<string, unknown>>,
  clientId: string,
  context: RefreshTokenContext,
): Promise<TokenResponseBody | TokenRejection> {
  const extensions = checkCodeFlowExtensions(claims, context.extensionsPolicy)
  if (extensions !== undefined) return extensions
  const use = context.tokens.presentRefreshToken(form.get('refresh_token') ?? '', clientId)
  switch (use.status) {
    case 'unknown':
      return refuse('refresh-token', 'invalid_grant', 'refresh_token is unknown or revoked')
    case 'other-client':
      return refuse('refresh-token', 'invalid_grant', 'refresh_token was issued to another client')
    case 'reused':
      return refuse(
        'refresh-token',
        'invalid_grant',
        'refresh_token was already used (rotated); its grant is revoked',
      )
    case 'valid':
      break
  }
  const requested = form.get('scope')
  const scopes = requested === null ? use.grant.scopes : splitScopes(requested)
  const widened = scopes.find((scope) => !use.grant.scopes.includes(scope))
  if (widened !== undefined || scopes.length === 0) {
    return refuse(
      'scope',
      'invalid_scope',
      widened === undefined
        ? 'scope must not be empty'
        : `scope ${widened} was not granted originally`,
    )
  }
  use.rotate()
  return issueUserTokens({ grantType: 'refresh_token', grant: use.grant, scopes }, context)
}
