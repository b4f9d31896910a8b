/**
 * Helpers of the `SharedTokenCache` tests: a clock the test moves, a logger that records its
 * warnings, a token endpoint stand-in, and a cache ("one process") on a given store.
 */
import type { KeyValueStore, Logger } from '@fhir-auth/core'
import { SharedTokenCache, type TokenResponseLike } from '../src/tokens/shared-token-cache.js'

export function manualClock(start = Date.UTC(2026, 10, 24, 12)) {
  let time = start
  return {
    now: () => new Date(time),
    advance(seconds: number) {
      time += seconds * 1000
    },
  }
}

/** Records each warning's message in `warnings` and its fields in `warningFields`. */
export function recordingLogger(): Logger & { warnings: string[]; warningFields: unknown[] } {
  const warnings: string[] = []
  const warningFields: unknown[] = []
  return {
    warnings,
    warningFields,
    info() {},
    error() {},
    warn: (message: string, fields?: unknown) => {
      warnings.push(message)
      warningFields.push(fields)
    },
  }
}

/** A token endpoint stand-in: counts requests, answers after `delayMs` with numbered tokens. */
export function tokenServer(
  response: Partial<TokenResponseLike> = { expires_in: 300 },
  delayMs = 5,
) {
  const server = {
    requests: 0,
    request: async (): Promise<TokenResponseLike> => {
      server.requests += 1
      const n = server.requests
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      return { access_token: `token-${n}`, token_type: 'Bearer', ...response }
    },
  }
  return server
}

/** The store keys of the entry {@link cache} makes. */
export const tokenKey = 'fhir-auth:backend-token:entry'
export const lockKey = 'fhir-auth:backend-token-lock:entry'

export function cache(
  store: KeyValueStore | undefined,
  server: { request: () => Promise<TokenResponseLike> },
  clock = manualClock(),
  extra: {
    timeoutMs?: number
    storeLimitMs?: number
    storeRetryAfterMs?: number
    logger?: Logger
  } = {},
) {
  return new SharedTokenCache({
    store,
    id: 'entry',
    now: clock.now,
    timeoutMs: extra.timeoutMs ?? 1_000,
    logger: extra.logger ?? recordingLogger(),
    request: server.request,
    ...(extra.storeLimitMs === undefined ? {} : { storeLimitMs: extra.storeLimitMs }),
    ...(extra.storeRetryAfterMs === undefined
      ? {}
      : { storeRetryAfterMs: extra.storeRetryAfterMs }),
  })
}
