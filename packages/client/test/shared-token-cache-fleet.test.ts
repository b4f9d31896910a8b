/**
 * The fleet protocol of the backend token cache at its edges (DESIGN §9, ADR 0010), seen in the
 * store the processes share: the times to live of the token and of the lock, the lock freed by
 * its holder only, a token that appears while another process holds the lock, a token another
 * process dropped, and a store left alone after it failed. Written for the survivors of
 * `pnpm test:mutation` in `src/tokens/shared-token-cache.ts` (docs/testing.md); the main cases
 * are in shared-token-cache.test.ts.
 */
import { type KeyValueStore, memoryStore } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import type { TokenResponseLike } from '../src/tokens/shared-token-cache.js'
import {
  cache,
  lockKey,
  manualClock,
  recordingLogger,
  tokenKey,
  tokenServer,
} from './token-cache-support.js'

type Call = readonly [operation: string, key: string, ttlSeconds?: number]

/** A memory store that records every call, and lets a test act before a chosen one runs. */
function recordingStore(before: (call: Call) => Promise<void> | void = () => {}) {
  const inner = memoryStore()
  const calls: Call[] = []
  /** `operation` of the inner store, recorded (key and time to live) before it runs. */
  const recorded =
    <A extends [key: string, ...rest: unknown[]], R>(
      operation: string,
      call: (...args: A) => Promise<R>,
    ) =>
    async (...args: A): Promise<R> => {
      const ttl = args[2] as number | undefined
      const entry: Call = ttl === undefined ? [operation, args[0]] : [operation, args[0], ttl]
      calls.push(entry)
      await before(entry)
      return call(...args)
    }
  const store: KeyValueStore = {
    get: recorded('get', (key: string) => inner.get(key)),
    set: recorded('set', (key: string, value: string, ttl: number) => inner.set(key, value, ttl)),
    delete: recorded('delete', (key: string) => inner.delete(key)),
    setIfAbsent: recorded('setIfAbsent', (key: string, value: string, ttl: number) =>
      inner.setIfAbsent(key, value, ttl),
    ),
  }
  return { store, inner, calls }
}

/** A stored token record as a cache writes it, valid for 300 s by {@link manualClock}. */
function storedToken(accessToken: string) {
  const obtainedAt = manualClock().now().getTime()
  return JSON.stringify({
    accessToken,
    tokenType: 'Bearer',
    obtainedAt,
    expiresAt: obtainedAt + 300_000,
  })
}

/** Resolves once every callback already queued has run (the lock is freed off the caller's path). */
const settled = () => new Promise((resolve) => setImmediate(resolve))

describe('what a process writes to the shared store', () => {
  it("the token, with a time to live that ends at its expiry; the lock, for the request timeout's whole seconds", async () => {
    const { store, calls } = recordingStore()
    await cache(store, tokenServer({ expires_in: 300 }), manualClock(), { timeoutMs: 1_500 }).token(
      60,
    )
    expect(calls.filter(([operation]) => operation !== 'get' && operation !== 'delete')).toEqual([
      ['setIfAbsent', lockKey, 2],
      ['set', tokenKey, 300],
    ])
  })

  it('not a token that expires as it arrives', async () => {
    const { store, calls } = recordingStore()
    const server = tokenServer({ expires_in: 0 })
    expect((await cache(store, server).token(60)).accessToken).toBe('token-1')
    expect(calls.filter(([operation]) => operation === 'set')).toEqual([])
  })

  it('the holder frees the lock once its token is written', async () => {
    const { store, inner } = recordingStore()
    await cache(store, tokenServer()).token(60)
    await settled()
    expect(await inner.get(lockKey)).toBeUndefined()
    expect(await inner.get(tokenKey)).toBeDefined()
  })

  it('a holder whose lock expired during its request leaves the next holder’s lock alone', async () => {
    const { store, inner } = recordingStore()
    const server = {
      request: async (): Promise<TokenResponseLike> => {
        // Our lock expired meanwhile and another process took it.
        await inner.delete(lockKey)
        await inner.setIfAbsent(lockKey, 'next-holder', 60)
        return { access_token: 'token-1', token_type: 'Bearer', expires_in: 300 }
      },
    }
    await cache(store, server).token(60)
    await settled()
    expect(await inner.get(lockKey)).toBe('next-holder')
  })

  it('nothing after the store failed: it is left alone, even when it may be retried at once', async () => {
    // The call that fails: the first read, the lock, the lock holder's second read.
    for (const [failing, nth] of [
      ['get', 1],
      ['setIfAbsent', 1],
      ['get', 2],
    ] as const) {
      let seen = 0
      const { store, calls } = recordingStore(([operation]) => {
        if (operation === failing && ++seen === nth) throw new Error('store down')
      })
      const logger = recordingLogger()
      const tokens = cache(store, tokenServer(), manualClock(), { storeRetryAfterMs: 0, logger })
      expect((await tokens.token(60)).accessToken).toBe('token-1')
      expect(
        calls.filter(([operation]) => operation === 'set'),
        `${failing} ${nth}`,
      ).toEqual([])
      expect(logger.warnings, `${failing} ${nth}`).toHaveLength(1)
    }
  })

  it('invalidate() deletes nothing from a store whose read just failed', async () => {
    let down = false
    const { store, calls } = recordingStore(([operation]) => {
      if (operation === 'get' && down) throw new Error('store down')
    })
    const tokens = cache(store, tokenServer(), manualClock(), { storeRetryAfterMs: 0 })
    await tokens.token(60)
    down = true
    await tokens.invalidate()
    expect(calls.filter(([operation, key]) => operation === 'delete' && key === tokenKey)).toEqual(
      [],
    )
  })
})

describe('what a process reads from the shared store', () => {
  it('a token written while another process holds the lock is used at once, without a request', async () => {
    const { store, inner } = recordingStore(async ([operation]) => {
      // The holder writes its token when this process first asks for the lock; it keeps the lock.
      if (operation === 'setIfAbsent') await inner.set(tokenKey, storedToken('from-holder'), 300)
    })
    await inner.setIfAbsent(lockKey, 'holder', 60)
    const server = tokenServer()
    expect((await cache(store, server).token(60)).accessToken).toBe('from-holder')
    expect(server.requests).toBe(0)
  })

  it('a process that wins the lock reads once more: a token written just before is used', async () => {
    const { store, inner } = recordingStore(async ([operation]) => {
      // The previous holder writes its token and frees the lock just after our first read.
      if (operation === 'setIfAbsent') await inner.set(tokenKey, storedToken('from-previous'), 300)
    })
    const server = tokenServer()
    expect((await cache(store, server).token(60)).accessToken).toBe('from-previous')
    expect(server.requests).toBe(0)
  })

  it('a token another process dropped (a server refused it) is not used from memory', async () => {
    const store = memoryStore()
    const server = tokenServer()
    const [first, second] = [cache(store, server), cache(store, server)]
    expect((await first.token(60)).accessToken).toBe('token-1')
    await second.invalidate('token-1')
    expect((await first.token(60)).accessToken).toBe('token-2')
  })

  it('a process that only read the token can drop it when a server refuses it', async () => {
    const store = memoryStore()
    await store.set(tokenKey, storedToken('written-by-another'), 300)
    const reader = cache(store, tokenServer())
    expect((await reader.token(60)).accessToken).toBe('written-by-another')
    await reader.invalidate('written-by-another')
    expect(await store.get(tokenKey)).toBeUndefined()
  })

  it('a caller whose margin the token still meets does not wait for another caller’s request', async () => {
    let answer = (_response: TokenResponseLike) => {}
    let requested = () => {}
    const requestSent = new Promise<void>((resolve) => {
      requested = resolve
    })
    const pending = {
      request: () =>
        new Promise<TokenResponseLike>((resolve) => {
          answer = resolve
          requested()
        }),
    }
    const store = memoryStore()
    await store.set(tokenKey, storedToken('current'), 300)
    const tokens = cache(store, pending)
    const strict = tokens.token(400) // 300 s left: not enough, so it requests
    await requestSent
    const lenient = tokens.token(60)
    answer({ access_token: 'renewed', token_type: 'Bearer', expires_in: 600 })
    expect((await lenient).accessToken).toBe('current')
    expect((await strict).accessToken).toBe('renewed')
  })
})

it('without a store, the cache keeps its token itself and logs nothing', async () => {
  const logger = recordingLogger()
  const server = tokenServer()
  const tokens = cache(undefined, server, manualClock(), { logger })
  expect((await tokens.token(60)).accessToken).toBe('token-1')
  expect((await tokens.token(60)).accessToken).toBe('token-1')
  expect(server.requests).toBe(1)
  expect(logger.warnings).toEqual([])
})
