import type { Clock } from '@fhir-auth/core/essentials'
import { TokenError, type TransportOptions } from '@fhir-auth/core/essentials'
import {
  oauthErrorFromResponse,
  readOptions,
  requireNonBlankString,
} from '@fhir-auth/core/internal'
import type { ClientAuthentication } from './client-authentication-types.js'
import { postAuthenticatedForm } from './token-request.js'

/** The `token_type_hint` values of RFC 7009 §2.1 a client sends. */
export type RevokedTokenType = 'refresh_token' | 'access_token'

/** Options of {@link revokeToken}. */
export interface RevokeTokenOptions extends TransportOptions {
  /** The server's `revocation_endpoint` (from its SMART configuration). */
  readonly revocationEndpoint: string
  /** The token to revoke. */
  readonly token: string
  /** Which kind of token it is; sent as `token_type_hint`. */
  readonly tokenTypeHint: RevokedTokenType
  /** The client's authentication, as at the token endpoint. */
  readonly clientAuthentication: ClientAuthentication
  /** Other secrets to keep out of any error (the session's other tokens). Never sent. */
  readonly heldSecrets?: readonly string[] | undefined
  /** The clock for assertion `iat`/`exp`; defaults to the system clock. */
  readonly now?: Clock | undefined
}

/**
 * Revokes a token (RFC 7009 §2.1): a form POST of `token` and `token_type_hint` to the
 * revocation endpoint, with the client's authentication as at the token endpoint (RFC 7009
 * §2.1, RFC 6749 §2.3): `client_id` in the body for a public client, HTTP Basic for a symmetric
 * one, a `private_key_jwt` assertion for an asymmetric one. The assertion's `aud` is the URL it
 * is posted to, the revocation endpoint, as SMART asks of the token endpoint ("the same URL to
 * which this authentication JWT will be posted"): an assertion is then good only where it is
 * sent, so a server whose metadata names another server's endpoints cannot replay it there
 * (the audience injection of private_key_jwt). A 2xx is success, whether or not the token was
 * still valid (RFC 7009 §2.2).
 *
 * @throws ConfigurationError for a missing option; TokenError when the server answers with an
 *   error (RFC 7009 §2.2.1) or does not answer; no token is in its message.
 * @example
 * ```ts
 * await revokeToken({
 *   revocationEndpoint: metadata.revocationEndpoint as string,
 *   token: tokens.refresh_token as string,
 *   tokenTypeHint: 'refresh_token',
 *   clientAuthentication: { type: 'public', clientId: 'my-app' },
 * })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7009 RFC 7009
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html#authenticating-to-the-token-endpoint
 */
export async function revokeToken(input: RevokeTokenOptions): Promise<void> {
  const options = readOptions(input, 'revokeToken', { required: true }) as RevokeTokenOptions
  const token = requireNonBlankString(options.token, 'token')
  await postAuthenticatedForm(
    options,
    requireNonBlankString(options.revocationEndpoint, 'revocationEndpoint'),
    { token, token_type_hint: options.tokenTypeHint },
    [token, ...(options.heldSecrets ?? [])],
    'revocation',
    (response, secrets) => {
      if (response.status >= 300) {
        throw oauthErrorFromResponse(TokenError, 'revocation request', response, secrets)
      }
    },
  )
}
