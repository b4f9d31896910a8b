import { AuthorizationError, type KeyValueStore, memoryStore, StoreError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import {
  checkCallbackAfterState,
  checkCallbackBeforeState,
  readCallback,
} from '../src/launch/authorization-callback.js'
import { type LaunchRecord, saveLaunch, takeLaunch } from '../src/launch/launch-record.js'

const now = new Date('2026-11-24T12:00:00Z')
const record: LaunchRecord = {
  state: 'state-abc',
  codeVerifier: 'v'.repeat(43),
  nonce: 'nonce-1',
  redirectUri: 'https://app.example/callback',
  scopes: ['openid', 'launch'],
  issuer: 'https://ehr.example.org/fhir',
  createdAt: now.getTime(),
}
const limits = { timeoutMs: 1_000 }

describe('launch records', () => {
  it('are kept under a key derived from the state (not the state itself) for 600 s', async () => {
    const keys: [string, number][] = []
    const store = memoryStore()
    const spy: KeyValueStore = {
      ...store,
      set: async (key, value, ttl) => {
        keys.push([key, ttl])
        return store.set(key, value, ttl)
      },
    }
    await saveLaunch(spy, record, limits)
    expect(keys).toHaveLength(1)
    expect(keys[0]?.[0]).toMatch(/^fhir-auth:launch:[\w-]{43}$/)
    expect(keys[0]?.[0]).not.toContain('state-abc')
    expect(keys[0]?.[1]).toBe(600)
  })

  it('are single use, with take or with get + delete', async () => {
    const { take: _take, ...withoutTake } = memoryStore()
    for (const store of [memoryStore(), withoutTake as KeyValueStore]) {
      await saveLaunch(store, record, limits)
      expect(await takeLaunch(store, 'state-abc', now, limits)).toEqual(record)
      expect(await takeLaunch(store, 'state-abc', now, limits)).toBeUndefined()
    }
  })

  it('without take, are claimed with setIfAbsent first: of concurrent takers of one state exactly one reads it', async () => {
    const store = memoryStore()
    const calls: string[] = []
    const slow = <T>(name: string, call: () => Promise<T>) => {
      calls.push(name)
      return new Promise<T>((resolve, reject) => setTimeout(() => call().then(resolve, reject), 5))
    }
    const withoutTake: KeyValueStore = {
      get: (key) => slow('get', () => store.get(key)),
      set: (key, value, ttl) => store.set(key, value, ttl),
      delete: (key) => slow('delete', () => store.delete(key)),
      setIfAbsent: (key, value, ttl) =>
        slow('setIfAbsent', () => store.setIfAbsent(key, value, ttl)),
    }
    await saveLaunch(withoutTake, record, limits)
    const taken = await Promise.all(
      Array.from({ length: 5 }, () => takeLaunch(withoutTake, 'state-abc', now, limits)),
    )
    expect(taken.filter((launch) => launch !== undefined)).toEqual([record])
    expect(calls.filter((name) => name === 'get')).toHaveLength(1)
    expect(calls.filter((name) => name === 'setIfAbsent')).toHaveLength(5)
  })

  it('without take, a claim the store cannot make is a StoreError (it failed, or gave no boolean)', async () => {
    for (const setIfAbsent of [
      async () => {
        throw new Error('down state-abc')
      },
      async () => 'OK' as never,
      async () => undefined as never,
    ]) {
      const { take: _take, ...withoutTake } = memoryStore()
      const store: KeyValueStore = { ...withoutTake, setIfAbsent }
      const failure = await takeLaunch(store, 'state-abc', now, limits).catch((e: unknown) => e)
      expect(failure).toBeInstanceOf(StoreError)
      expect(String((failure as Error).message)).not.toContain('state-abc')
    }
  })

  it('are refused when older than 600 s by the client clock, or for another state', async () => {
    const store = memoryStore()
    await saveLaunch(store, record, limits)
    expect(
      await takeLaunch(store, 'state-abc', new Date(now.getTime() + 600_001), limits),
    ).toBeUndefined()
    expect(await takeLaunch(store, 'other-state', now, limits)).toBeUndefined()
  })

  it('turn a failing store into a StoreError that names no value', async () => {
    const broken: KeyValueStore = {
      get: async () => {
        throw new Error('boom state-abc')
      },
      set: async () => {
        throw new Error('boom')
      },
      delete: async () => {},
      // The claim succeeds, so the failing get is what is read.
      setIfAbsent: async () => true,
    }
    await expect(saveLaunch(broken, record, limits)).rejects.toThrow(StoreError)
    const failure = await takeLaunch(broken, 'state-abc', now, limits).catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(StoreError)
    expect(String(failure)).not.toContain('state-abc')
  })
})

describe('launch records from stores that misbehave', () => {
  const key = async () => {
    const keys: string[] = []
    const store = memoryStore()
    await saveLaunch(
      {
        ...store,
        set: async (k, v, t) => {
          keys.push(k)
          await store.set(k, v, t)
        },
      },
      record,
      limits,
    )
    return keys[0] as string
  }

  it('a store that never answers is a StoreError after the time limit, for set and take', async () => {
    const hanging: KeyValueStore = {
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
      delete: async () => {},
      setIfAbsent: async () => false,
      take: () => new Promise(() => {}),
    }
    const short = { timeoutMs: 20 }
    await expect(saveLaunch(hanging, record, short)).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof StoreError &&
        error.operation === 'set' &&
        /within 20 ms/.test(error.message),
    )
    await expect(takeLaunch(hanging, 'state-abc', now, short)).rejects.toSatisfy(
      (error: unknown) => error instanceof StoreError && error.operation === 'take',
    )
  })

  it("the caller's signal ends the wait for a store: a StoreError, and at once when already aborted", async () => {
    const calls: string[] = []
    // Aborted once the store is waited on, not after a timer: the key is hashed first, and a
    // 5 ms timer could fire before the store was ever called.
    let setWasCalled = () => {}
    const setCalled = new Promise<void>((resolve) => {
      setWasCalled = resolve
    })
    const hanging: KeyValueStore = {
      get: async () => undefined,
      set: () => {
        calls.push('set')
        setWasCalled()
        return new Promise(() => {})
      },
      delete: async () => {},
      setIfAbsent: async () => false,
    }
    const controller = new AbortController()
    const saving = saveLaunch(hanging, record, { timeoutMs: 60_000, signal: controller.signal })
    await setCalled
    controller.abort()
    await expect(saving).rejects.toThrow(/aborted by the caller/)
    await expect(
      saveLaunch(hanging, record, { timeoutMs: 60_000, signal: AbortSignal.abort() }),
    ).rejects.toThrow(StoreError)
    expect(calls).toEqual(['set'])
  })

  it('a store that returns something other than a string is a StoreError; nothing is absent', async () => {
    for (const returned of [42, {}, ['x'], true]) {
      const store: KeyValueStore = { ...memoryStore(), take: async () => returned as never }
      await expect(takeLaunch(store, 'state-abc', now, limits)).rejects.toSatisfy(
        (error: unknown) =>
          error instanceof StoreError && !String(error.message).includes('state-abc'),
      )
    }
    for (const returned of [null, undefined]) {
      const store: KeyValueStore = { ...memoryStore(), take: async () => returned }
      expect(await takeLaunch(store, 'state-abc', now, limits)).toBeUndefined()
    }
  })

  it('a store that throws synchronously, or throws a non-error, is a StoreError naming only a kind', async () => {
    const store: KeyValueStore = {
      ...memoryStore(),
      set: () => {
        throw 'the-value-itself'
      },
      take: () => {
        throw Object.assign(new Error('secret state-abc'), { name: 'state-abc the name' })
      },
    }
    const set = await saveLaunch(store, record, limits).catch((error: unknown) => error)
    expect(set).toBeInstanceOf(StoreError)
    expect(String((set as Error).message)).not.toContain('the-value-itself')
    const take = await takeLaunch(store, 'state-abc', now, limits).catch((error: unknown) => error)
    expect(take).toBeInstanceOf(StoreError)
    expect(JSON.stringify([String(take), (take as Error).stack])).not.toContain('state-abc')
  })

  it('a corrupted or foreign record is no launch', async () => {
    const stored = key()
    const good = JSON.parse(JSON.stringify(record)) as Record<string, unknown>
    const corrupted = [
      'not json',
      'null',
      '42',
      '[]',
      JSON.stringify({ ...good, codeVerifier: 7 }),
      JSON.stringify({ ...good, codeVerifier: '' }),
      JSON.stringify({ ...good, scopes: ['openid', 3] }),
      JSON.stringify({ ...good, scopes: 'openid' }),
      JSON.stringify({ ...good, createdAt: '0' }),
      JSON.stringify({ ...good, nonce: 5 }),
      JSON.stringify({ ...good, issuer: null }),
      JSON.stringify({ ...good, redirectUri: 5 }),
      JSON.stringify({ ...good, state: 'another-state' }),
    ]
    for (const text of corrupted) {
      const store = memoryStore()
      await store.set(await stored, text, 600)
      expect(await takeLaunch(store, 'state-abc', now, limits), text).toBeUndefined()
    }
  })
})

describe('readCallback', () => {
  it('reads full URLs, URL objects, URLSearchParams, relative URLs and bare queries, never the fragment', () => {
    const forms = [
      'https://app.example/callback?code=c1&state=s1&iss=https%3A%2F%2Fehr#frag=x',
      new URL('https://app.example/callback?code=c1&state=s1&iss=https%3A%2F%2Fehr'),
      new URLSearchParams('code=c1&state=s1&iss=https%3A%2F%2Fehr'),
      '/callback?code=c1&state=s1&iss=https%3A%2F%2Fehr',
      '?code=c1&state=s1&iss=https%3A%2F%2Fehr',
      'code=c1&state=s1&iss=https%3A%2F%2Fehr',
    ]
    for (const form of forms) {
      expect(readCallback(form)).toMatchObject({ code: 'c1', state: 's1', iss: 'https://ehr' })
    }
  })

  it('treats a repeated or empty parameter as absent', () => {
    expect(readCallback('?code=a&code=b&state=')).toMatchObject({
      code: undefined,
      state: undefined,
    })
  })

  it('keeps a repeated or empty iss as present: it names no one issuer, so RFC 9207 fails it', () => {
    const issuer = 'https://ehr.example'
    const expected = { issuer, issRequired: false }
    for (const query of [
      `?state=s&code=c&iss=${issuer}&iss=https://evil.example`,
      `?state=s&code=c&iss=https://evil.example&iss=${issuer}`,
      `?state=s&code=c&iss=${issuer}&iss=${issuer}`,
      '?state=s&code=c&iss=',
    ]) {
      expect(() => checkCallbackAfterState(readCallback(query), expected), query).toThrow(
        expect.objectContaining({ error: 'iss_mismatch' }),
      )
    }
    expect(readCallback('?state=s&code=c').iss).toBeUndefined()
    expect(checkCallbackAfterState(readCallback(`?state=s&code=c&iss=${issuer}`), expected)).toBe(
      'c',
    )
  })

  it('refuses what is not a URL or query', () => {
    expect(() => readCallback(42)).toThrow(/callbackUrl/)
  })
})

/** The error a call throws, or undefined when it returns. */
function thrown(call: () => unknown): AuthorizationError | undefined {
  try {
    call()
  } catch (caught) {
    return caught as AuthorizationError
  }
  return undefined
}

describe('callback checks, in order', () => {
  const expectations = { issuer: 'https://ehr.example.org/fhir', issRequired: false }
  const reason = (call: () => unknown) => {
    try {
      call()
    } catch (error) {
      return error instanceof AuthorizationError ? error.error : 'not an AuthorizationError'
    }
    return 'passed'
  }

  it('error first, with the server fields, even without state', () => {
    const callback = readCallback(
      '?error=access_denied&error_description=User%20said%20no&error_uri=https%3A%2F%2Fe%2Fdoc&state=s1',
    )
    const error = thrown(() => checkCallbackBeforeState(callback))
    expect(error).toMatchObject({
      error: 'access_denied',
      errorDescription: 'User said no',
      errorUri: 'https://e/doc',
      state: 's1',
    })
    expect(reason(() => checkCallbackBeforeState(readCallback('?error=invalid_idp')))).toBe(
      'invalid_idp',
    )
  })

  it('then state, then iss (RFC 9207), then code', () => {
    expect(reason(() => checkCallbackBeforeState(readCallback('?code=c')))).toBe('state_mismatch')
    const wrongIss = readCallback('?state=s&iss=https%3A%2F%2Fevil.example')
    expect(reason(() => checkCallbackAfterState(wrongIss, expectations))).toBe('iss_mismatch')
    const noIss = readCallback('?state=s&code=c')
    expect(
      reason(() => checkCallbackAfterState(noIss, { ...expectations, issRequired: true })),
    ).toBe('iss_mismatch')
    expect(reason(() => checkCallbackAfterState(readCallback('?state=s'), expectations))).toBe(
      'missing_code',
    )
    expect(
      checkCallbackAfterState(
        readCallback('?state=s&code=c&iss=https%3A%2F%2Fehr.example.org%2Ffhir'),
        expectations,
      ),
    ).toBe('c')
  })

  it('keeps hostile error text short and printable', () => {
    const long = `?error=x&error_description=${'A'.repeat(5000)}%0A%1B[31m`
    const error = thrown(() => checkCallbackBeforeState(readCallback(long)))
    expect(error?.errorDescription?.length).toBeLessThanOrEqual(513)
    expect(error?.message.includes('\n') || error?.message.includes('\u001b')).toBe(false)
  })

  it('cuts a code sent along with an error out of the server text, before it is shortened', () => {
    const code = 'the-code-0123456789'
    const long = `?code=${code}&error=bad&error_description=${'A'.repeat(500)}${code}&error_uri=https://x/${code}`
    const error = thrown(() => checkCallbackBeforeState(readCallback(long)))
    expect(error?.error).toBe('bad')
    expect(
      JSON.stringify([error?.message, error?.errorDescription, error?.errorUri]),
    ).not.toContain('the-code')
  })
})
