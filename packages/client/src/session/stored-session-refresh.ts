import { defaultTimeoutMs, TokenError, TokenSet } from '@fhir-auth/core/essentials'
import type { UdapTrustOptions } from '../operation-options.js'
import { underFleetLock } from '../tokens/fleet-lock.js'
import { storeFailed } from '../tokens/guarded-store.js'
import type { SessionDependencies } from './session.js'
import type { SessionSource } from './session-factory.js'
import { RefreshFailure, refreshTokens } from './session-refresh.js'
import { type SessionEntry, sessionStoreError } from './stored-session-entry.js'

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
 * A refresh whose tokens could not be written leaves this session with them (a
 * {@link RefreshFailure}) and the caller with the `StoreError`. An entry that is gone (deleted,
 * signed out, expired) is a `TokenError`: a signed-out session is not brought back.
 *
 * @see docs/adr/0010-backend-tokens-shared-by-a-fleet.md in the fhir-auth repository
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 RFC 9700 §4.14.2
 * @internal
 */
export function sharedRefresh(
  source: SessionSource,
  entry: SessionEntry,
  trust: Partial<UdapTrustOptions>,
): SessionDependencies['refresh'] {
  const { options } = source.context
  return async (current, { scopes }) => {
    // Discovery (once per client) before the lock: the lock lives one request timeout, and
    // should cover the refresh request, not the requests that find the token endpoint.
    await (await source.implementation()).tokenEndpoint(trust)
    let lastRead: TokenSet | undefined
    const read = async () => {
      const stored = await entry.read()
      if (stored !== storeFailed) lastRead = stored
      return stored
    }
    return underFleetLock(
      {
        store: entry.store,
        lockKey: entry.lockKey,
        timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
        logger: options.logger,
        deadlineWarning: {
          event: 'sessions.lock_wait_exceeded',
          message:
            'Session refresh: the process holding the lock has written no tokens within twice the request timeout; refreshing directly',
        },
        read,
        // Another process's tokens answer only a refresh of the original grant's scopes.
        isDone: (stored): stored is TokenSet =>
          scopes === undefined &&
          stored instanceof TokenSet &&
          stored.obtainedAt.getTime() > current.obtainedAt.getTime() &&
          !stored.isExpired({ now: options.now() }),
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
          return refreshAndWrite(source, entry, trust, newest, current, scopes)
        },
      },
      await read(),
    )
  }
}

async function refreshAndWrite(
  source: SessionSource,
  entry: SessionEntry,
  trust: Partial<UdapTrustOptions>,
  newest: TokenSet,
  current: TokenSet,
  scopes: readonly string[] | undefined,
): Promise<TokenSet> {
  let tokens: TokenSet
  try {
    tokens = await refreshTokens(source, trust, newest, scopes)
  } catch (error) {
    if (error instanceof RefreshFailure) {
      // The server rotated the refresh token and the refresh still failed: keep the new one.
      if ((await entry.write(error.keep)) === storeFailed) {
        throw new RefreshFailure(
          error.keep,
          sessionStoreError('set', 'the rotated refresh token was not kept'),
        )
      }
      throw error
    }
    // The session takes the store's newer tokens even when its own refresh failed.
    throw newest === current ? error : new RefreshFailure(newest, error)
  }
  if ((await entry.write(tokens)) === storeFailed) {
    throw new RefreshFailure(tokens, sessionStoreError('set', 'the refreshed tokens were not kept'))
  }
  return tokens
}
