import { ConfigurationError, defaultTimeoutMs, type Logger, TokenSet } from '@fhir-auth/core'
import { isNonBlankString } from '@fhir-auth/core/internal'
import type { IdTokenValidator } from '../identity/id-token-validator.js'
import type { UdapTrustOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { ProtocolImplementation } from '../protocol-implementation.js'
import { Session, type TokensListener } from './session.js'

/** What a session needs from its client. */
export interface SessionSource {
  readonly context: ProtocolContext
  readonly implementation: () => Promise<ProtocolImplementation>
  /** ID token validation, loaded when the first ID token is checked. */
  readonly identity: Pick<IdTokenValidator, 'validate'>
  /**
   * {@link createSession} on this source: launches (loaded on demand) open their session through
   * it, so the session code stays in the client's main chunk rather than a shared one.
   */
  readonly open: (
    tokens: TokenSet,
    onTokens: TokensListener | undefined,
    trust?: Partial<UdapTrustOptions>,
  ) => Session
}

/**
 * A session on this client: `session.fetch` under the configured `baseUrl`, refreshes through
 * the protocol's refresh grant (UDAP: with `trust`, the trust inputs its token endpoint is
 * validated with when the client has validated none), and a new ID token in a refresh response
 * validated (same `sub`, OIDC Core §12.2) when the grant includes `openid`.
 *
 * @internal
 */
export function createSession(
  source: SessionSource,
  tokens: TokenSet,
  onTokens: TokensListener | undefined,
  trust: Partial<UdapTrustOptions> = {},
): Session {
  const { context } = source
  const logger: Logger = context.options.logger
  return new Session({
    tokens,
    baseUrl: context.config.baseUrl,
    fetch: context.options.fetch,
    now: context.options.now,
    onTokens,
    timeoutMs: context.options.timeoutMs ?? defaultTimeoutMs,
    // Shared by every caller waiting on it: it runs under the client's time limit, not under
    // one caller's signal.
    refresh: async (current, options) => {
      const obtainedAt = context.options.now()
      const implementation = await source.implementation()
      const response = await implementation.refreshToken({
        refreshToken: current.refreshToken as string,
        scopes: options.scopes,
        ...trust,
      })
      const idToken = response.id_token
      const idTokenClaims =
        expectsIdToken(current) && typeof idToken === 'string'
          ? await source.identity.validate(idToken, {
              subject: current.idTokenClaims?.sub as string | undefined,
            })
          : undefined
      return current.withRefresh(response, {
        obtainedAt,
        idTokenClaims,
        logger,
        clock: context.options.now,
      })
    },
  })
}

/**
 * Whether a refresh response's ID token is validated: when the grant asked for `openid` (a server
 * may leave it out of the granted `scope`), was granted it, or already has a verified identity.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RefreshTokenResponse OIDC Core §12.2
 */
function expectsIdToken(tokens: TokenSet): boolean {
  return (
    tokens.idTokenClaims !== undefined ||
    tokens.requestedScopes.includes('openid') ||
    tokens.scopes.includes('openid')
  )
}

/**
 * An `onTokens` listener when given: `undefined`/`null` is none.
 *
 * @throws ConfigurationError on `onTokens` for anything but a function.
 * @internal
 */
export function optionalListener(value: unknown): TokensListener | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'function') return value as TokensListener
  throw new ConfigurationError({
    invalidAttribute: 'onTokens',
    invalidValue: value === null ? 'null' : typeof value,
    message: 'onTokens must be a function',
  })
}

/**
 * Reads what `client.resumeSession` is given: a `TokenSet`, its `serialize()` string, or a token
 * response (whose `expires_in` then counts from now: when it was issued is not known).
 *
 * @throws ConfigurationError on `tokens` for anything else.
 * @internal
 */
export function readTokens(value: unknown, context: ProtocolContext): TokenSet {
  if (value instanceof TokenSet) return value
  const logger = context.options.logger
  if (typeof value === 'string') {
    const tokens = TokenSet.deserialize(value, logger, context.options.now)
    if (tokens !== undefined) return tokens
  } else if (
    typeof value === 'object' &&
    isNonBlankString((value as { access_token?: unknown } | null)?.access_token)
  ) {
    return TokenSet.fromResponse(value as { access_token: string }, {
      obtainedAt: context.options.now(),
      requestedScopes: context.config.scopes,
      logger,
      clock: context.options.now,
    })
  }
  throw new ConfigurationError({
    invalidAttribute: 'tokens',
    invalidValue: value === null ? 'null' : typeof value,
    message:
      'tokens must be a TokenSet, the string its serialize() made, or a token response with an access_token',
  })
}
