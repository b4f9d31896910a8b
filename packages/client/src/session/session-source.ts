import type { TokenSet } from '@fhir-auth/core/essentials'
import type { IdTokenValidator } from '../identity/id-token-validator.js'
import type { UdapTrustOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { ProtocolImplementation } from '../protocol-implementation.js'
import type { TokensListener } from './tokens-listener.js'

/**
 * What sessions and launches use of their client. `TSession` is what {@link SessionSource.open}
 * makes: the `Session` class, named by the `Client`. A type parameter rather than an import, so
 * that the code the session module loads (its refresh, and `session.fetch`'s rules, which travel
 * with the launch) does not import the session module back (ADR 0015).
 */
export interface SessionSource<TSession = unknown> {
  readonly context: ProtocolContext
  readonly implementation: () => Promise<ProtocolImplementation>
  /** ID token validation, loaded when the first ID token is checked. */
  readonly identity: Pick<IdTokenValidator, 'validate'>
  /**
   * `createSession` on this source: launches (loaded on demand) open their session through it,
   * so the session code stays in the client's main chunk rather than a shared one.
   */
  readonly open: (
    tokens: TokenSet,
    onTokens: TokensListener | undefined,
    trust?: Partial<UdapTrustOptions>,
  ) => TSession
  /** Revokes a session's tokens at the server (RFC 7009); `false` when it offers no revocation. */
  readonly revoke: (tokens: TokenSet) => Promise<boolean>
}
