/**
 * `redisStore` on a real redis-server started for this file, with and without sealing: the
 * shared store contract, what is at rest in Redis, and failures that must stay typed and bounded.
 */
import { ConfigurationError, StoreError } from '@fhir-auth/core'
import { keyValueStoreContract } from '@fhir-auth/store-contract'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type RedisClientLike, redisStore } from '../src/index.js'

let server: RedisServer
let redis: ReturnType<typeof createClient>

beforeAll(async () => {
  server = await startRedisServer()
  redis = createClient({ url: server.url })
  await redis.connect()
})

afterAll(async () => {
  await redis?.quit()
  await server?.stop()
})

const realTime = {
  elapse: (seconds: number) => new Promise<void>((r) => setTimeout(r, seconds * 1000)),
}
const key32 = Uint8Array.from({ length: 32 }, (_, i) => i * 7)

/**
 * Changes one character of the tag for sure. The second-last base64url character always carries
 * six bits of the tag, so swapping it for another letter changes the bytes. (Overwriting the end
 * with a fixed `AA` left the value as it was whenever it already ended so: 1 run in ~256.)
 */
function alterTag(sealed: string): string {
  const at = sealed.length - 2
  return `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`
}

keyValueStoreContract('redisStore', () => ({ store: redisStore(redis), ...realTime }))
keyValueStoreContract('redisStore with encryptionKey (bytes)', () => ({
  store: redisStore(redis, { encryptionKey: key32 }),
  ...realTime,
}))
keyValueStoreContract('redisStore with prefix and a CryptoKey', async () => {
  const cryptoKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ])
  return {
    store: redisStore(redis, { prefix: 'test-env:', encryptionKey: cryptoKey }),
    ...realTime,
  }
})

describe('what Redis holds', () => {
  const token = 'eyJhbGciOiJSUzM4NCJ9.access-token-text.signature'

  it('without a key: the value as given, under prefix + key, with a time to live', async () => {
    await redisStore(redis, { prefix: 'plain:' }).set('fhir-auth:t1', token, 90)
    expect(await redis.get('plain:fhir-auth:t1')).toBe(token)
    const ttl = await redis.ttl('plain:fhir-auth:t1')
    expect(ttl).toBeGreaterThan(85)
    expect(ttl).toBeLessThanOrEqual(90)
  })

  it('rounds a fractional time to live up to whole seconds (EX)', async () => {
    await redisStore(redis).set('fhir-auth:frac', 'v', 0.2)
    expect(await redis.ttl('fhir-auth:frac')).toBe(1)
  })

  it('with a key: no token text at rest, and a fresh IV for every write', async () => {
    const store = redisStore(redis, { encryptionKey: key32 })
    await store.set('fhir-auth:t2', token, 60)
    const first = (await redis.get('fhir-auth:t2')) ?? ''
    await store.set('fhir-auth:t2', token, 60)
    const second = (await redis.get('fhir-auth:t2')) ?? ''
    expect(first).toMatch(/^fa1\.[\w-]{16}\.[\w-]+$/)
    expect(first).not.toContain('access-token-text')
    expect(first).not.toBe(second)
    expect(await store.get('fhir-auth:t2')).toBe(token)
  })

  it('a sealed value moved to another key does not open there', async () => {
    const store = redisStore(redis, { encryptionKey: key32 })
    await store.set('fhir-auth:launch:a', 'record-a', 60)
    await redis.set('fhir-auth:launch:b', (await redis.get('fhir-auth:launch:a')) ?? '')
    await expect(store.get('fhir-auth:launch:b')).rejects.toSatisfy(
      (error: unknown) => error instanceof StoreError && error.operation === 'get',
    )
  })

  it('a value sealed with another key, altered, or written in clear fails to open, naming none of it', async () => {
    const store = redisStore(redis, { encryptionKey: key32 })
    await redisStore(redis, { encryptionKey: new Uint8Array(32) }).set('fhir-auth:k1', token, 60)
    await redis.set('fhir-auth:k2', token)
    await store.set('fhir-auth:k3', token, 60)
    const sealed = (await redis.get('fhir-auth:k3')) ?? ''
    await redis.set('fhir-auth:k3', alterTag(sealed))
    for (const key of ['fhir-auth:k1', 'fhir-auth:k2', 'fhir-auth:k3']) {
      const failure = await store.take(key).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(StoreError)
      expect((failure as StoreError).operation).toBe('take')
      // The store answered: its value is what cannot be read (a session store skips it).
      expect((failure as StoreError).reason).toBe('unreadable')
      expect(String((failure as StoreError).message)).not.toContain('access-token-text')
    }
  })
})

describe('encryptionKey forms', () => {
  it('32 bytes as a Uint8Array, a Buffer or an ArrayBuffer (exportKey raw) are the same key', async () => {
    const generated = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
      'encrypt',
      'decrypt',
    ])
    const raw = await crypto.subtle.exportKey('raw', generated)
    const fromArrayBuffer = redisStore(redis, { encryptionKey: raw })
    await fromArrayBuffer.set('fhir-auth:forms', 'sealed-once', 60)
    expect(await redis.get('fhir-auth:forms')).toMatch(/^fa1\./)
    expect(
      await redisStore(redis, { encryptionKey: new Uint8Array(raw) }).get('fhir-auth:forms'),
    ).toBe('sealed-once')
    expect(
      await redisStore(redis, { encryptionKey: Buffer.from(raw) }).get('fhir-auth:forms'),
    ).toBe('sealed-once')
    expect(await redisStore(redis, { encryptionKey: generated }).get('fhir-auth:forms')).toBe(
      'sealed-once',
    )
    expect(() => redisStore(redis, { encryptionKey: new ArrayBuffer(16) })).toThrow(
      expect.objectContaining({ invalidAttribute: 'encryptionKey' }),
    )
  })
})

describe('the commands DESIGN §9 names', () => {
  /** The real client, with every command it is sent recorded. */
  function recordingClient() {
    const sent: { command: string; args: unknown[] }[] = []
    const record =
      <A extends unknown[], R>(command: string, run: (...args: A) => Promise<R>) =>
      (...args: A) => {
        sent.push({ command, args })
        return run(...args)
      }
    const client: RedisClientLike = {
      get: record('get', (key: string) => redis.get(key)),
      set: record(
        'set',
        (key: string, value: string, options: Parameters<RedisClientLike['set']>[2]) =>
          redis.set(key, value, options),
      ),
      del: record('del', (key: string) => redis.del(key)),
      getDel: record('getDel', (key: string) => redis.getDel(key)),
    }
    return { client, sent }
  }

  it('setIfAbsent is one SET NX EX: only the first of many concurrent callers wins, and the key expires', async () => {
    const { client, sent } = recordingClient()
    const store = redisStore(client, { prefix: 'nx:' })
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.setIfAbsent('fhir-auth:lock', `owner-${i}`, 30)),
    )
    expect(wins.filter(Boolean)).toHaveLength(1)
    expect(sent.map((entry) => entry.command)).toEqual(Array(20).fill('set'))
    expect(sent[0]?.args[2]).toEqual({ expiration: { type: 'EX', value: 30 }, condition: 'NX' })
    const ttl = await redis.ttl('nx:fhir-auth:lock')
    expect(ttl).toBeGreaterThan(25)
    expect(ttl).toBeLessThanOrEqual(30)
  })

  it('take is one GETDEL: of many concurrent takers exactly one gets the value', async () => {
    const { client, sent } = recordingClient()
    const store = redisStore(client, { encryptionKey: key32 })
    await store.set('fhir-auth:launch:once', 'record', 60)
    sent.length = 0
    const taken = await Promise.all(
      Array.from({ length: 20 }, () => store.take('fhir-auth:launch:once')),
    )
    expect(taken.filter((value) => value === 'record')).toHaveLength(1)
    expect(taken.filter((value) => value === undefined)).toHaveLength(19)
    expect(new Set(sent.map((entry) => entry.command))).toEqual(new Set(['getDel']))
    expect(await redis.exists('fhir-auth:launch:once')).toBe(0)
  })
})

describe('reading sealed values', () => {
  it('opens a value read again unchanged once; a changed value is opened and checked again', async () => {
    const store = redisStore(redis, { encryptionKey: key32 })
    await store.set('fhir-auth:memo', 'first', 60)
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt')
    for (let i = 0; i < 5; i++) expect(await store.get('fhir-auth:memo')).toBe('first')
    expect(decrypt).toHaveBeenCalledTimes(1)
    await store.set('fhir-auth:memo', 'second', 60)
    expect(await store.get('fhir-auth:memo')).toBe('second')
    expect(decrypt).toHaveBeenCalledTimes(2)
    const sealed = (await redis.get('fhir-auth:memo')) ?? ''
    await redis.set('fhir-auth:memo', alterTag(sealed))
    await expect(store.get('fhir-auth:memo')).rejects.toBeInstanceOf(StoreError)
    // The same ciphertext under another key is not the value that was opened.
    await redis.set('fhir-auth:memo-copy', sealed)
    await expect(store.get('fhir-auth:memo-copy')).rejects.toBeInstanceOf(StoreError)
  })
})

describe('failures stay typed and bounded', () => {
  it('a command that never answers is a StoreError after commandTimeoutMs', async () => {
    const silent: RedisClientLike = {
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
      del: () => new Promise(() => {}),
      getDel: () => new Promise(() => {}),
    }
    const store = redisStore(silent, { commandTimeoutMs: 50 })
    for (const call of [
      () => store.get('k'),
      () => store.set('k', 'v', 1),
      () => store.setIfAbsent('k', 'v', 1),
      () => store.delete('k'),
      () => (store.take ?? store.get)('k'),
    ]) {
      await expect(call()).rejects.toThrow(/did not answer .* within 50 ms/)
      // A store that fails, not a value that cannot be read.
      await expect(call()).rejects.toMatchObject({ reason: 'failed' })
    }
  })

  it('a stopped Redis gives StoreErrors, not hangs, and keeps the client error text out', async () => {
    const lone = await startRedisServer()
    const client = createClient({
      url: lone.url,
      socket: { reconnectStrategy: () => 50 },
    })
    client.on('error', () => {})
    await client.connect()
    const store = redisStore(client, { commandTimeoutMs: 500 })
    await store.set('fhir-auth:x', 'secret-value', 60)
    await lone.stop()
    const failure = await store.get('fhir-auth:x').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StoreError)
    expect((failure as Error).message).not.toContain('secret-value')
    expect((failure as Error).cause).toBeUndefined()
    client.destroy()
  })

  it('an answer that is not text is a StoreError', async () => {
    const store = redisStore({
      get: async () => 42,
      set: async () => 'OK',
      del: async () => 1,
      getDel: async () => ({}),
    })
    await expect(store.get('k')).rejects.toThrow(StoreError)
    await expect(store.take?.('k')).rejects.toThrow(StoreError)
  })

  it('refuses a client, prefix, key or timeout that cannot work, when the store is made', async () => {
    const bad: [unknown, unknown, string][] = [
      [null, {}, 'redisClient'],
      [{ get() {} }, {}, 'redisClient'],
      [redis, { prefix: 7 }, 'prefix'],
      [redis, { prefix: 'app\uD800:' }, 'prefix'],
      [redis, { encryptionKey: new Uint8Array(16) }, 'encryptionKey'],
      [redis, { encryptionKey: 'a'.repeat(32) }, 'encryptionKey'],
      [redis, { commandTimeoutMs: 0 }, 'commandTimeoutMs'],
      [redis, { commandTimeoutMs: 3e9 }, 'commandTimeoutMs'],
    ]
    for (const [client, options, attribute] of bad) {
      expect(() => redisStore(client as RedisClientLike, options as object)).toThrow(
        expect.objectContaining({ invalidAttribute: attribute }),
      )
    }
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    expect(() => redisStore(redis, { encryptionKey: hmac })).toThrow(ConfigurationError)
    const aes128 = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, [
      'encrypt',
      'decrypt',
    ])
    expect(() => redisStore(redis, { encryptionKey: aes128 })).toThrow(ConfigurationError)
  })
})

describe('strings Redis cannot hold as they are', () => {
  it('refuses keys and values with a lone surrogate before any command, naming neither value', async () => {
    const store = redisStore(redis, { prefix: 'surrogates:' })
    // Two keys that UTF-8 would both write as "a\uFFFD": they must never name one entry.
    for (const key of ['a\uD800', 'a\uDC00']) {
      for (const call of [
        () => store.get(key),
        () => store.take(key),
        () => store.delete(key),
        () => store.set(key, 'v', 60),
        () => store.setIfAbsent(key, 'v', 60),
      ]) {
        const error = await call().then(
          () => undefined,
          (caught: unknown) => caught,
        )
        expect(error).toBeInstanceOf(ConfigurationError)
        expect(error).toMatchObject({ invalidAttribute: 'key' })
      }
    }
    const secret = 'token-\uDBFF-secret'
    for (const write of [
      () => store.set('k', secret, 60),
      () => store.setIfAbsent('k', secret, 60),
    ]) {
      const error = (await write().then(
        () => undefined,
        (caught: unknown) => caught,
      )) as ConfigurationError
      expect(error).toMatchObject({ invalidAttribute: 'value' })
      expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('secret')
    }
    expect(await redis.get('surrogates:k')).toBeNull()
  })

  it('stores surrogate pairs (astral characters) unchanged', async () => {
    const store = redisStore(redis, { prefix: 'pairs:' })
    await store.set('clé-😀', 'valeur 𝄞', 60)
    expect(await store.get('clé-😀')).toBe('valeur 𝄞')
  })
})
