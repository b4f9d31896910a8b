import type { TokenSet } from '@fhir-auth/core/essentials'
import type { ClientAuthentication } from '@fhir-auth/smart/launch'
import { revokeToken } from '@fhir-auth/smart/revocation'
import type { ProtocolContext } from '../protocol-context.js'

/**
 * Revokes a SMART session's tokens (RFC 7009 §2.1): the refresh token first (a server may then
 * revoke the whole grant, RFC 7009 §2.1), then the access token, each with the client's
 * authentication. Loaded by a session's sign-out only.
 *
 * @throws TokenError when the server refuses either request or does not answer; no token is in
 *   its message.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.1 RFC 7009 §2.1
 * @internal
 */
export async function revokeSessionTokens(
  context: ProtocolContext,
  revocationEndpoint: string,
  clientAuthentication: ClientAuthentication,
  tokens: TokenSet,
  signal: AbortSignal | undefined,
): Promise<void> {
  const held = [tokens.accessToken, tokens.refreshToken, tokens.idToken].filter(
    (secret): secret is string => secret !== undefined,
  )
  const revoke = (token: string, tokenTypeHint: 'refresh_token' | 'access_token') =>
    revokeToken({
      ...context.transport(signal),
      revocationEndpoint,
      token,
      tokenTypeHint,
      clientAuthentication,
      heldSecrets: held,
      now: context.options.now,
    })
  context.options.logger.info('Revoking the session tokens', { event: 'smart.token.revocation' })
  if (tokens.refreshToken !== undefined) await revoke(tokens.refreshToken, 'refresh_token')
  await revoke(tokens.accessToken, 'access_token')
}
