import { isNonBlankString } from '@fhir-auth/core/internal/checks'
import { ConfigurationError, defaultTimeoutMs, TokenSet } from '@fhir-auth/core/internal/up-front'
import type { UdapTrustOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import { Session, sessionRefreshModule } from './session.js'
import { checkBinding } from './session-binding.js'
import type { SessionSource } from './session-source.js'
import type { TokensListener } from './tokens-listener.js'

/**
 * A session on this client: `session.fetch` under the configured `baseUrl`, and refreshes
 * through the protocol's refresh grant (see `refreshTokens`, loaded with the first refresh).
 *
 * @internal
 */
export function createSession(
  source: SessionSource,
  tokens: TokenSet,
  onTokens: TokensListener | undefined,
  trust: Partial<UdapTrustOptions> = {},
): Session {
  const { options, config } = source.context
  return new Session({
    tokens,
    baseUrl: config.baseUrl,
    fetch: options.fetch,
    now: options.now,
    onTokens,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    refresh: async (current, { scopes }) =>
      (await sessionRefreshModule()).refreshTokens(source, trust, current, scopes),
    revoke: source.revoke,
  })
}

/**
 * Reads what `client.resumeSession` is given: a `TokenSet`, its `serialize()` string, or a token
 * response (whose `expires_in` then counts from now: when it was issued is not known). A
 * serialized set must carry its binding, and none that a set carries may differ from this
 * client's (see `checkBinding`); a token response gets this client's binding.
 *
 * @throws ConfigurationError on `tokens` for anything else.
 * @internal
 */
export function readTokens(value: unknown, context: ProtocolContext): TokenSet {
  const tokens = tokensOf(value, context)
  checkBinding(tokens.binding, context.binding(), typeof value === 'string')
  return tokens
}

function tokensOf(value: unknown, context: ProtocolContext): TokenSet {
  if (value instanceof TokenSet) return value
  const logger = context.options.logger
  if (typeof value === 'string') {
    const tokens = TokenSet.deserialize(value, logger, context.options.now)
    if (tokens !== undefined) return tokens
  } else if (typeof value === 'object') {
    // The session's own copy, read once: a getter that answers differently on a second read
    // cannot put a non-string in accessToken, and changing the caller's object afterwards
    // changes nothing the session holds. A token response is JSON, so its JSON copy loses
    // nothing; one that cannot be copied (a throwing getter or Proxy trap, a cycle) is none, and
    // the caller's error, which could quote anything, is dropped.
    let response: { readonly access_token?: unknown } | null | undefined
    try {
      response = JSON.parse(JSON.stringify(value))
    } catch {
      // Not a token response: refused below.
    }
    if (isNonBlankString(response?.access_token)) {
      return TokenSet.fromResponse(response as { access_token: string }, {
        obtainedAt: context.options.now(),
        requestedScopes: context.config.scopes,
        logger,
        clock: context.options.now,
        binding: context.binding(),
      })
    }
  }
  throw new ConfigurationError({
    invalidAttribute: 'tokens',
    invalidValue: value === null ? 'null' : typeof value,
    message:
      'tokens must be a TokenSet, its serialize() string, or a token response with an access_token',
  })
}
