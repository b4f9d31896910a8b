/**
 * DESIGN §9 `redisStore(redisClient, { prefix?, encryptionKey? })`: SET NX EX, GETDEL, values
 * sealed with AES-256-GCM at rest; against a real redis-server.
 */
import { ConfigurationError } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { syncFailureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { useRedis } from './support/redis.js'
import { smartClient, smartServer } from './support/smart-token-server.js'

const redis = useRedis()
const key32 = new Uint8Array(32).map((_, index) => index + 1)

async function allValues(prefix: string): Promise<string[]> {
  const raw = await redis.connect()
  const keys = await raw.keys(`${prefix}*`)
  return Promise.all(keys.map(async (key) => String(await raw.get(key))))
}

describe('DESIGN §9 redisStore', () => {
  it('setIfAbsent is SET NX EX: one winner, a time to live, then free again after delete', async () => {
    const raw = await redis.connect()
    const store = redisStore(raw, { prefix: 'nx:' })
    expect(await store.setIfAbsent('lock', 'a', 30)).toBe(true)
    expect(await store.setIfAbsent('lock', 'b', 30)).toBe(false)
    expect(await store.get('lock')).toBe('a')
    const ttl = await raw.ttl('nx:lock')
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(30)
    await store.delete('lock')
    expect(await store.setIfAbsent('lock', 'c', 30)).toBe(true)
  })

  it('of 20 concurrent setIfAbsent calls over 4 connections exactly one wins', async () => {
    const stores = await Promise.all(
      Array.from({ length: 4 }, async () => redisStore(await redis.connect(), { prefix: 'race:' })),
    )
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        stores[index % 4]?.setIfAbsent('lock', `v${index}`, 30),
      ),
    )
    expect(results.filter((won) => won === true)).toHaveLength(1)
  })

  it('set stores with a time to live (EX)', async () => {
    const raw = await redis.connect()
    const store = redisStore(raw, { prefix: 'ex:' })
    await store.set('k', 'v', 100)
    const ttl = await raw.ttl('ex:k')
    expect(ttl).toBeGreaterThan(90)
    expect(ttl).toBeLessThanOrEqual(100)
  })

  it('take is GETDEL: the value once, then nothing', async () => {
    const store = redisStore(await redis.connect(), { prefix: 'take:' })
    await store.set('k', 'v', 60)
    const [one, two] = await Promise.all([store.take('k'), store.take('k')])
    expect([one, two].filter((value) => value === 'v')).toHaveLength(1)
    expect([null, undefined]).toContain(await store.get('k'))
  })

  it('prefix is put before every key', async () => {
    const raw = await redis.connect()
    const store = redisStore(raw, { prefix: 'env-x:' })
    await store.set('k', 'v', 60)
    expect(await raw.get('env-x:k')).toBe('v')
  })

  it('with a 32-byte encryptionKey a stored value is not readable in Redis, and reads back', async () => {
    const raw = await redis.connect()
    const store = redisStore(raw, { prefix: 'sealed:', encryptionKey: key32 })
    await store.set('k', 'plain-secret-value', 60)
    const atRest = String(await raw.get('sealed:k'))
    expect(atRest).not.toContain('plain-secret-value')
    expect(atRest).not.toBe('')
    expect(await store.get('k')).toBe('plain-secret-value')
    expect(
      await redisStore(await redis.connect(), { prefix: 'sealed:', encryptionKey: key32 }).get('k'),
    ).toBe('plain-secret-value')
  })

  it('accepts an AES-GCM CryptoKey', async () => {
    const cryptoKey = await crypto.subtle.importKey('raw', key32, { name: 'AES-GCM' }, false, [
      'encrypt',
      'decrypt',
    ])
    const raw = await redis.connect()
    const store = redisStore(raw, { prefix: 'ck:', encryptionKey: cryptoKey })
    await store.set('k', 'another-secret', 60)
    expect(String(await raw.get('ck:k'))).not.toContain('another-secret')
    expect(await store.get('k')).toBe('another-secret')
    // the same 32 bytes as raw bytes open it too (the same key, two forms)
    expect(await redisStore(raw, { prefix: 'ck:', encryptionKey: key32 }).get('k')).toBe(
      'another-secret',
    )
  })

  it.each([
    ['31 bytes', new Uint8Array(31)],
    ['33 bytes', new Uint8Array(33)],
    ['16 bytes', new Uint8Array(16)],
    ['a string', 'x'.repeat(32)],
    ['a number', 42],
    ['null', null],
  ])('refuses an encryptionKey of %s with a ConfigurationError', async (_label, encryptionKey) => {
    const raw = await redis.connect()
    const error = syncFailureOf(
      () => redisStore(raw, { encryptionKey } as unknown as Parameters<typeof redisStore>[1]),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe('encryptionKey')
  })

  it('refuses a CryptoKey that is not AES-GCM (HMAC)', async () => {
    const hmac = await crypto.subtle.importKey(
      'raw',
      key32,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    const raw = await redis.connect()
    const outcome = await (async () => {
      try {
        const store = redisStore(raw, { prefix: 'hm:', encryptionKey: hmac })
        await store.set('k', 'v', 60)
        return 'accepted'
      } catch (error) {
        return error
      }
    })()
    expect(outcome).toBeInstanceOf(ConfigurationError)
  })

  it('a fleet with an encryptionKey keeps no token text in Redis', async () => {
    const server = smartServer({ expiresIn: 300 })
    const prefix = 'fleet-sealed:'
    const fleet = await Promise.all(
      Array.from({ length: 3 }, async () =>
        smartClient(server).backendTokens({
          store: redisStore(await redis.connect(), { prefix, encryptionKey: key32 }),
        }),
      ),
    )
    const results = await Promise.all(fleet.map((tokens) => tokens.accessToken()))
    expect(new Set(results)).toEqual(new Set(['token-1']))
    const values = await allValues(prefix)
    expect(values.length).toBeGreaterThan(0)
    for (const value of values) expect(value).not.toContain('token-1')
  })

  it('without an encryptionKey the fleet still shares through plain values (control for the test above)', async () => {
    const server = smartServer({ expiresIn: 300 })
    const prefix = 'fleet-plain:'
    const store = redisStore(await redis.connect(), { prefix })
    await smartClient(server).backendTokens({ store }).accessToken()
    const values = await allValues(prefix)
    expect(values.some((value) => value.includes('token-1'))).toBe(true)
  })

  it.each([
    ['undefined', undefined],
    ['a string', 'redis://localhost'],
    ['an object without commands', {}],
  ])('refuses a redis client that is %s with a ConfigurationError', (_label, client) => {
    syncFailureOf(() => redisStore(client as never), ConfigurationError)
  })

  it('refuses a prefix that is not a string', async () => {
    const raw = await redis.connect()
    const error = syncFailureOf(() => redisStore(raw, { prefix: 7 as never }), ConfigurationError)
    expect(error.invalidAttribute).toBe('prefix')
  })
})
