import { usableScopes } from '../checks/request-scopes.js'
import { requireNonBlankString } from '../checks/required-string.js'
import { heldSecretsOf } from './token-response.js'

/** What refreshing needs. */
export interface RefreshParts {
  readonly refreshToken?: unknown
  /** A narrower scope list; absent, or only blank entries, keeps the grant's scopes. */
  readonly scopes?: unknown
  /** Secrets the caller holds beside the refresh token (a session's), kept out of errors too. */
  readonly heldSecrets?: unknown
}

/**
 * The `refresh_token` grant of a token request: `grant_type`, `refresh_token` and, when a
 * narrower list is given, `scope`; with the values that must never reach a log or an error (the
 * refresh token and the caller's `heldSecrets`). `refreshToken` is returned too, for
 * `keepRefreshToken` once the server has answered.
 *
 * @throws ConfigurationError on `refreshToken`, before any request.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6 RFC 6749 §6
 * @internal
 */
export function refreshTokenGrant(parts: RefreshParts): {
  readonly form: Record<string, string>
  readonly secrets: readonly string[]
  readonly refreshToken: string
} {
  const refreshToken = requireNonBlankString(parts.refreshToken, 'refreshToken')
  const scopes = usableScopes(parts.scopes)
  const form: Record<string, string> = { grant_type: 'refresh_token', refresh_token: refreshToken }
  if (scopes !== undefined) form.scope = scopes.join(' ')
  return { form, secrets: [refreshToken, ...heldSecretsOf(parts.heldSecrets)], refreshToken }
}
