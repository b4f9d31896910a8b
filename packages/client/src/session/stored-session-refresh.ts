import { TokenError, TokenSet } from '@fhir-auth/core/essentials'
import type { UdapTrustOptions } from '../operation-options.js'
import { underFleetLock } from '../tokens/fleet-lock.js'
import { storeFailed } from '../tokens/guarded-store.js'
import type { SessionDependencies } from './session-dependencies.js'
import { RefreshFailure, refreshTokens } from './session-refresh.js'
import type { SessionSource } from './session-source.js'
import { refused, type SessionEntry, sessionStoreError } from './stored-session-entry.js'
import type { TokensListener } from './tokens-listener.js'

/** What a session opened from a `SessionStore` refreshes and delivers its tokens with. */
export interface SharedRefresh {
  readonly refresh: SessionDependencies['refresh']
  /** The session's `onTokens`: the store first, then the app's listener. */
  readonly onTokens: TokensListener
}

/**
 * The refresh of a session opened from a `SessionStore`, shared by every process that opened
 * it: one refresh per expiry window, and a rotated refresh token never lost (RFC 9700 §4.14.2).
 * It reads the store first: tokens newer than the session's (another process refreshed) that
 * are still valid are the answer, and nothing is sent. Otherwise it refreshes under the entry's
 * fleet lock (ADR 0010: time to live = the request timeout; a dead holder is taken over; after
 * twice the request timeout a waiter refreshes on its own) with the newest tokens the store
 * holds, and writes the new ones before the lock is freed; waiters read them from the store.
 *
 * A store that fails or does not answer in time is a `StoreError` and nothing is sent: a
 * refresh whose rotated token could not be kept would end the session for every other process.
 * Tokens a refresh got but could not write stay with this session, and its `onTokens` — which
 * writes to the store before it calls the app's `listener` — fails with a `StoreError`; the
 * session's next `accessToken()`, `fetch()` or `refresh()` writes them again (never over newer
 * ones) until the store takes them. An entry that is gone (deleted, signed out, expired) is a
 * `TokenError`: a signed-out session is not brought back.
 *
 * @see docs/adr/0010-backend-tokens-shared-by-a-fleet.md in the fhir-auth repository
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 RFC 9700 §4.14.2
 * @internal
 */
export function sharedRefresh(
  source: SessionSource,
  entry: SessionEntry,
  trust: Partial<UdapTrustOptions>,
  listener: TokensListener | undefined,
): SharedRefresh {
  const { options } = source.context
  /** Token sets the store holds (read from it, or written to it): nothing to write again. */
  const stored = new WeakSet<TokenSet>()
  const read = async () => {
    const tokens = await entry.read()
    if (tokens instanceof TokenSet) stored.add(tokens)
    // A value that is not this client's session (warned about) is no session to refresh.
    return tokens === refused ? undefined : tokens
  }
  const write = async (tokens: TokenSet) => {
    const written = (await entry.write(tokens)) !== storeFailed
    if (written) stored.add(tokens)
    return written
  }

  const refresh: SharedRefresh['refresh'] = async (current, { scopes }) => {
    // Discovery (once per client) before the lock: the lock lives one request timeout, and
    // should cover the refresh request, not the requests that find the token endpoint.
    await (await source.implementation()).tokenEndpoint(trust)
    let lastRead: TokenSet | undefined
    const readLast = async () => {
      const tokens = await read()
      if (tokens !== storeFailed) lastRead = tokens
      return tokens
    }
    return underFleetLock(
      {
        ...entry.lockSettings('Session refresh', 'refreshing directly'),
        read: readLast,
        // Another process's tokens answer only a refresh of the original grant's scopes.
        isDone: (tokens): tokens is TokenSet =>
          scopes === undefined &&
          tokens instanceof TokenSet &&
          tokens.obtainedAt.getTime() > current.obtainedAt.getTime() &&
          !tokens.isExpired({ now: options.now() }),
        work: async (turn) => {
          if (turn === 'store-failed') {
            throw sessionStoreError('get', 'the session was not refreshed')
          }
          if (lastRead === undefined) {
            throw new TokenError({
              message:
                'the session is no longer in the session store (deleted, signed out or expired): authorize again',
            })
          }
          // Another process's newer tokens carry the refresh token that is still good.
          const newest =
            lastRead.obtainedAt.getTime() > current.obtainedAt.getTime() ? lastRead : current
          try {
            const tokens = await refreshTokens(source, trust, newest, scopes)
            // Not written: the session keeps them, and its onTokens writes them again.
            await write(tokens)
            return tokens
          } catch (error) {
            // A rotated refresh token of a refresh that still failed is kept (or written by
            // onTokens); so are the store's newer tokens when the session's own refresh failed.
            if (error instanceof RefreshFailure) await write(error.keep)
            else if (newest !== current) throw new RefreshFailure(newest, error)
            throw error
          }
        },
      },
      await readLast(),
    )
  }

  const onTokens: TokensListener = async (tokens) => {
    if (!stored.has(tokens)) {
      // Written again after a store failure, but never over what another process wrote since.
      const inStore = await read()
      if (inStore === storeFailed) {
        throw sessionStoreError('get', 'the refreshed tokens are not kept yet')
      }
      const newer = inStore?.obtainedAt.getTime() ?? Number.NEGATIVE_INFINITY
      if (newer < tokens.obtainedAt.getTime() && !(await write(tokens))) {
        throw sessionStoreError('set', 'the refreshed tokens are not kept yet')
      }
    }
    await listener?.(tokens)
  }
  return { refresh, onTokens }
}
