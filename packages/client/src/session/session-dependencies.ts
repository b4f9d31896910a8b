import type { FetchLike, TokenSet } from '@fhir-auth/core/essentials'
import type { TokensListener } from './tokens-listener.js'

/**
 * What a session needs from its client. Kept apart from `Session`: the refresh code, which the
 * session loads, reads it too, and imports nothing of the session's (ADR 0015).
 *
 * @internal
 */
export interface SessionDependencies {
  readonly tokens: TokenSet
  /** The FHIR base URL; without one, `fetch` refuses every URL. */
  readonly baseUrl: string | undefined
  readonly fetch: FetchLike | undefined
  readonly now: () => Date
  /** Refreshes (and validates any new ID token); the client's implementation of the grant. */
  readonly refresh: (
    tokens: TokenSet,
    options: { readonly scopes?: readonly string[] | undefined },
  ) => Promise<TokenSet>
  readonly onTokens?: TokensListener | undefined
  /** How long `onTokens` may take (the client's time limit per request). */
  readonly timeoutMs: number
  /**
   * Revokes the tokens at the server (RFC 7009); `false` when it offers no revocation. Without
   * it, `revoke()` only ends the session here.
   */
  readonly revoke?: ((tokens: TokenSet) => Promise<boolean>) | undefined
}
