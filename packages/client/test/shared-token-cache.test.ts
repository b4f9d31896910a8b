/**
 * The backend token cache on its own: one request per expiry window for concurrent callers and
 * for several "processes" (caches) sharing one store, the lock protocol when a holder dies or
 * never writes, and a store that fails or hangs.
 */
import { type KeyValueStore, memoryStore, TokenError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import {
  cache,
  lockKey,
  manualClock,
  recordingLogger,
  tokenKey,
  tokenServer,
} from './token-cache-support.js'

describe('SharedTokenCache without a store', () => {
  it('keeps the token in memory: one request for concurrent callers, reused until it nears expiry', async () => {
    const clock = manualClock()
    const server = tokenServer({ expires_in: 300 })
    const tokens = cache(undefined, server, clock)
    const first = await Promise.all(Array.from({ length: 50 }, () => tokens.token(60)))
    expect(new Set(first.map((t) => t.accessToken))).toEqual(new Set(['token-1']))
    clock.advance(239)
    expect((await tokens.token(60)).accessToken).toBe('token-1')
    expect(server.requests).toBe(1)
    clock.advance(2)
    expect((await tokens.token(60)).accessToken).toBe('token-2')
    expect(server.requests).toBe(2)
  })

  it('never reuses a token without expires_in', async () => {
    const server = tokenServer({})
    const tokens = cache(undefined, server)
    expect((await tokens.token(60)).accessToken).toBe('token-1')
    expect((await tokens.token(60)).accessToken).toBe('token-2')
  })
})

describe('SharedTokenCache in one process', () => {
  it('200 concurrent callers share one request; the token is reused until it nears expiry', async () => {
    const clock = manualClock()
    const server = tokenServer({ expires_in: 300 })
    const tokens = cache(memoryStore(), server, clock)
    const first = await Promise.all(Array.from({ length: 200 }, () => tokens.token(60)))
    expect(server.requests).toBe(1)
    expect(new Set(first.map((t) => t.accessToken))).toEqual(new Set(['token-1']))
    clock.advance(239)
    expect((await tokens.token(60)).accessToken).toBe('token-1')
    clock.advance(2) // 59 s left: less than minValiditySeconds
    expect((await tokens.token(60)).accessToken).toBe('token-2')
    expect(server.requests).toBe(2)
  })

  it('reads a numeric-string expires_in; keeps a short-lived token until expiresAt − minValiditySeconds', async () => {
    const clock = manualClock()
    const server = tokenServer({ expires_in: '100' })
    const tokens = cache(memoryStore(), server, clock)
    expect((await tokens.token(60)).expiresAt).toBe(clock.now().getTime() + 100_000)
    clock.advance(39)
    expect((await tokens.token(60)).accessToken).toBe('token-1')
    clock.advance(2)
    expect((await tokens.token(60)).accessToken).toBe('token-2')
  })

  it('uses a token that lives less than minValiditySeconds once (its concurrent callers share it)', async () => {
    const clock = manualClock()
    const server = tokenServer({ expires_in: 30 })
    const tokens = cache(memoryStore(), server, clock)
    const together = await Promise.all([tokens.token(60), tokens.token(60)])
    expect(together.map((t) => t.accessToken)).toEqual(['token-1', 'token-1'])
    expect((await tokens.token(60)).accessToken).toBe('token-2')
    // A caller that asks for less margin still reuses it.
    expect((await tokens.token(10)).accessToken).toBe('token-2')
  })

  it('never reuses a token without expires_in (concurrent callers still share the one request)', async () => {
    const server = tokenServer({})
    const tokens = cache(memoryStore(), server)
    const together = await Promise.all([tokens.token(60), tokens.token(60)])
    expect(together.map((t) => t.accessToken)).toEqual(['token-1', 'token-1'])
    expect((await tokens.token(60)).accessToken).toBe('token-2')
  })

  it('passes a failed token request on, frees the lock, and the next call tries again', async () => {
    let fail = true
    const store = memoryStore()
    const tokens = cache(store, {
      request: async () => {
        if (fail) throw new TokenError({ message: 'token request failed', status: 401 })
        return { access_token: 'ok', expires_in: 300 }
      },
    })
    await expect(tokens.token(60)).rejects.toThrow(TokenError)
    fail = false
    expect((await tokens.token(60)).accessToken).toBe('ok')
  })

  const keepers: ReadonlyArray<readonly [string, () => KeyValueStore | undefined]> = [
    ['in a store', () => memoryStore()],
    ['kept by the cache itself (no store)', () => undefined],
  ]
  it.for(keepers)(
    'invalidate(failedToken) drops only that token, invalidate() whatever is kept: %s',
    async ([, makeStore]) => {
      const server = tokenServer({ expires_in: 300 })
      const tokens = cache(makeStore(), server)
      expect((await tokens.token(60)).accessToken).toBe('token-1')
      await tokens.invalidate('some-other-token')
      expect((await tokens.token(60)).accessToken).toBe('token-1')
      await tokens.invalidate('token-1')
      expect((await tokens.token(60)).accessToken).toBe('token-2')
      await tokens.invalidate()
      expect((await tokens.token(60)).accessToken).toBe('token-3')
      expect(server.requests).toBe(3)
    },
  )
})

describe('SharedTokenCache: the lock holder frees its lock before its caller resumes', () => {
  /** A memory store whose `delete` of the lock key does what `deleteLock` says. */
  function storeWithLockDelete(deleteLock: (inner: KeyValueStore) => Promise<void>) {
    const inner = memoryStore()
    const store: KeyValueStore = {
      get: (key) => inner.get(key),
      set: (key, value, ttl) => inner.set(key, value, ttl),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
      delete: (key) => (key === lockKey ? deleteLock(inner) : inner.delete(key)),
    }
    return { inner, store }
  }

  it('when token() resolves, the lock key is gone (a slow delete is waited for)', async () => {
    const { inner, store } = storeWithLockDelete(async (memory) => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      await memory.delete(lockKey)
    })
    const logger = recordingLogger()
    const token = await cache(store, tokenServer(), manualClock(), { logger }).token(60)
    expect(token.accessToken).toBe('token-1')
    expect(await inner.get(lockKey)).toBeUndefined()
    expect(await inner.get(tokenKey)).toEqual(expect.any(String))
    expect(logger.warnings).toEqual([])
  })

  const failingReleases: ReadonlyArray<readonly [string, () => Promise<void>, RegExp]> = [
    [
      'rejects',
      () => Promise.reject(new Error('closed, value secret-lock-owner')),
      /failed delete/,
    ],
    ['hangs', () => new Promise<void>(() => {}), /did not answer delete in time/],
  ]
  it.for(failingReleases)(
    'a release that %s does not fail the call: it is waited for within the store limit and warned about',
    async ([, deleteLock, warning]) => {
      const { store } = storeWithLockDelete(deleteLock)
      const logger = recordingLogger()
      const started = Date.now()
      const token = await cache(store, tokenServer(), manualClock(), {
        storeLimitMs: 50,
        logger,
      }).token(60)
      expect(token.accessToken).toBe('token-1')
      expect(Date.now() - started).toBeLessThan(1_000)
      // Already warned when the call returns: the release was part of it.
      expect(logger.warnings).toHaveLength(1)
      expect(logger.warnings[0]).toMatch(warning)
      expect(logger.warnings[0]).not.toContain('secret-lock-owner')
    },
  )
})

describe('SharedTokenCache across processes sharing a store', () => {
  it('8 caches on one store, 50 concurrent calls each: one request; one more after expiry', async () => {
    const store = memoryStore()
    const clock = manualClock()
    const server = tokenServer({ expires_in: 300 }, 30)
    const fleet = Array.from({ length: 8 }, () => cache(store, server, clock))
    const calls = fleet.flatMap((tokens) => Array.from({ length: 50 }, () => tokens.token(60)))
    expect(new Set((await Promise.all(calls)).map((t) => t.accessToken))).toEqual(
      new Set(['token-1']),
    )
    expect(server.requests).toBe(1)
    clock.advance(300)
    const later = fleet.flatMap((tokens) => Array.from({ length: 50 }, () => tokens.token(60)))
    expect(new Set((await Promise.all(later)).map((t) => t.accessToken))).toEqual(
      new Set(['token-2']),
    )
    expect(server.requests).toBe(2)
  })

  it('a lock left by a crashed holder frees after the request timeout; one waiter then requests', async () => {
    const store = memoryStore()
    await store.setIfAbsent(lockKey, 'crashed-holder', 1)
    const server = tokenServer()
    const fleet = Array.from({ length: 4 }, () =>
      cache(store, server, manualClock(), { timeoutMs: 1_000 }),
    )
    const tokens = await Promise.all(fleet.map((tokens) => tokens.token(60)))
    expect(tokens.map((t) => t.accessToken)).toEqual(['token-1', 'token-1', 'token-1', 'token-1'])
    expect(server.requests).toBe(1)
  })

  it('a waiter requests on its own after twice the request timeout when no token appears', async () => {
    const store = memoryStore()
    await store.setIfAbsent(lockKey, 'stuck-holder', 3_600)
    const server = tokenServer()
    const logger = recordingLogger()
    const started = Date.now()
    const token = await cache(store, server, manualClock(), { timeoutMs: 200, logger }).token(60)
    expect(token.accessToken).toBe('token-1')
    expect(Date.now() - started).toBeGreaterThanOrEqual(400)
    expect(logger.warnings.join()).toMatch(/twice the request timeout/)
  })
})

describe('SharedTokenCache with a store that fails', () => {
  const throwing: KeyValueStore = {
    get: async () => {
      throw new Error('connection refused, value secret-token-text')
    },
    set: () => {
      throw new Error('sync throw')
    },
    delete: async () => {
      throw new Error('down')
    },
    setIfAbsent: async () => {
      throw new Error('down')
    },
  }
  const hanging: KeyValueStore = {
    get: () => new Promise(() => {}),
    set: () => new Promise(() => {}),
    delete: () => new Promise(() => {}),
    setIfAbsent: () => new Promise(() => {}),
  }

  for (const [name, store] of [
    ['throws', throwing],
    ['hangs', hanging],
  ] as const) {
    it(`${name}: the caller still gets tokens, one request while the last one is valid, one warning`, async () => {
      const server = tokenServer()
      const logger = recordingLogger()
      const tokens = cache(store, server, manualClock(), { storeLimitMs: 50, logger })
      for (let i = 0; i < 5; i++) expect((await tokens.token(60)).accessToken).toBe('token-1')
      expect(server.requests).toBe(1)
      expect(logger.warnings).toHaveLength(1)
      expect(logger.warnings[0]).not.toContain('secret-token-text')
    })
  }
})

describe('SharedTokenCache with a store that answers wrongly or slowly', () => {
  const validRecord = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({
      accessToken: 'planted',
      tokenType: 'Bearer',
      obtainedAt: manualClock().now().getTime(),
      expiresAt: manualClock().now().getTime() + 300_000,
      ...overrides,
    })

  it('uses a valid record another process wrote, without a request', async () => {
    const store = memoryStore()
    await store.set(tokenKey, validRecord(), 300)
    const server = tokenServer()
    expect((await cache(store, server).token(60)).accessToken).toBe('planted')
    expect(server.requests).toBe(0)
  })

  const unusable: ReadonlyArray<readonly [string, string]> = [
    ['not JSON', '{"accessToken":'],
    ['JSON null', 'null'],
    ['a JSON string', '"planted"'],
    ['no access token', validRecord({ accessToken: undefined })],
    ['an empty access token', validRecord({ accessToken: '' })],
    ['an access token with a line break', validRecord({ accessToken: 'a\r\nx-injected: 1' })],
    ['an access token with outer spaces', validRecord({ accessToken: ' planted ' })],
    ['an expiry as text', validRecord({ expiresAt: '2100-01-01' })],
    ['no obtainedAt', validRecord({ obtainedAt: undefined })],
    ['an expiry before it was obtained', validRecord({ expiresAt: 0 })],
  ]
  for (const [name, text] of unusable) {
    it(`a record with ${name} counts as absent: one request, written over`, async () => {
      const store = memoryStore()
      await store.set(tokenKey, text, 300)
      const server = tokenServer()
      const tokens = cache(store, server)
      expect((await tokens.token(60)).accessToken).toBe('token-1')
      expect((await tokens.token(60)).accessToken).toBe('token-1')
      expect(server.requests).toBe(1)
      expect(JSON.parse((await store.get(tokenKey)) as string).accessToken).toBe('token-1')
    })
  }

  it('a setIfAbsent that is not a boolean: requests at once instead of waiting for a lock', async () => {
    const store = memoryStore()
    const broken: KeyValueStore = {
      get: (key) => store.get(key),
      set: (key, value, ttl) => store.set(key, value, ttl),
      delete: (key) => store.delete(key),
      setIfAbsent: async () => 'OK' as unknown as boolean,
    }
    const server = tokenServer()
    const logger = recordingLogger()
    // A waiter would wait twice the request timeout (an hour here) before requesting.
    const tokens = cache(broken, server, manualClock(), { timeoutMs: 1_800_000, logger })
    expect((await tokens.token(60)).accessToken).toBe('token-1')
    expect(server.requests).toBe(1)
    expect(logger.warnings.join()).toMatch(/answered setIfAbsent with string/)
  })

  it('a store operation may take up to half the request timeout (at most 2 s) before it counts as down', async () => {
    const slowStore = (delayMs: number): KeyValueStore => {
      const store = memoryStore()
      const slow =
        <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
        async (...args: A) => {
          await new Promise((resolve) => setTimeout(resolve, delayMs))
          return operation(...args)
        }
      return {
        get: slow((key: string) => store.get(key)),
        set: slow((key: string, value: string, ttl: number) => store.set(key, value, ttl)),
        delete: slow((key: string) => store.delete(key)),
        setIfAbsent: slow((key: string, value: string, ttl: number) =>
          store.setIfAbsent(key, value, ttl),
        ),
      }
    }
    const patient = recordingLogger()
    await cache(slowStore(150), tokenServer(), manualClock(), {
      timeoutMs: 1_000,
      logger: patient,
    }).token(60)
    expect(patient.warnings).toEqual([])
    const impatient = recordingLogger()
    await cache(slowStore(150), tokenServer(), manualClock(), {
      timeoutMs: 200,
      logger: impatient,
    }).token(60)
    expect(impatient.warnings.join()).toMatch(/did not answer get in time/)
  })

  it('a store that is down is not asked again on every call; the last token stands in', async () => {
    let storeCalls = 0
    const hanging: KeyValueStore = {
      get: () => {
        storeCalls += 1
        return new Promise(() => {})
      },
      set: () => new Promise(() => {}),
      delete: () => new Promise(() => {}),
      setIfAbsent: () => new Promise(() => {}),
    }
    const server = tokenServer()
    const tokens = cache(hanging, server, manualClock(), { storeLimitMs: 30 })
    for (let i = 0; i < 50; i++) expect((await tokens.token(60)).accessToken).toBe('token-1')
    expect(storeCalls).toBe(1)
    expect(server.requests).toBe(1)
  })
})
