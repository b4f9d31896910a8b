/**
 * Type tests of DESIGN §9's `redisStore(redisClient, { prefix?, encryptionKey? })` as a strict-mode
 * user writes it: a client of the `redis` package (v5) as `createClient()` makes it — connected or
 * not, RESP2 or RESP3, with a Buffer type mapping — fits; the key is 32 bytes (a `Uint8Array`, a
 * Node `Buffer` or an `ArrayBuffer`) or a `CryptoKey`; the store is a `KeyValueStore` with `take`. Vitest type-checks
 * this file (it is never run).
 */
import type { KeyValueStore } from '@fhir-auth/core'
import { createClient, RESP_TYPES } from 'redis'
import { describe, expectTypeOf, it } from 'vitest'
import { type EncryptionKeyInput, type RedisStoreOptions, redisStore } from '../src/index.js'

declare const cryptoKey: CryptoKey

describe('redisStore types', () => {
  it('takes the client createClient() makes, connected or not', async () => {
    const client = createClient({ url: 'redis://127.0.0.1:6379' })
    expectTypeOf(redisStore(client)).toExtend<KeyValueStore>()
    const connected = await client.connect()
    const store = redisStore(connected, { prefix: 'prod:' })
    expectTypeOf(store).toExtend<KeyValueStore>()
    expectTypeOf(store.take).parameters.toEqualTypeOf<[key: string]>()
    expectTypeOf(store.take('k')).resolves.toExtend<string | null | undefined>()
    expectTypeOf(store.setIfAbsent('k', 'v', 60)).toEqualTypeOf<Promise<boolean>>()
  })

  it('takes a RESP3 client and one whose replies are mapped to Buffers', async () => {
    expectTypeOf(redisStore(await createClient({ RESP: 3 }).connect())).toExtend<KeyValueStore>()
    const buffers = createClient().withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer })
    expectTypeOf(redisStore(buffers)).toExtend<KeyValueStore>()
  })

  it('an encryptionKey is 32 bytes (Uint8Array, Buffer or ArrayBuffer) or a CryptoKey', () => {
    const client = createClient()
    redisStore(client, { encryptionKey: new Uint8Array(32) })
    redisStore(client, { encryptionKey: Buffer.alloc(32) })
    redisStore(client, { encryptionKey: cryptoKey, prefix: 'staging:' })
    expectTypeOf<EncryptionKeyInput>().toEqualTypeOf<Uint8Array | ArrayBuffer | CryptoKey>()
    redisStore(client, { encryptionKey: new ArrayBuffer(32) })
    expectTypeOf<RedisStoreOptions['prefix']>().toEqualTypeOf<string | undefined>()
    // @ts-expect-error: a key is bytes, not text
    redisStore(client, { encryptionKey: 'a'.repeat(32) })
    // @ts-expect-error: not a redis client
    redisStore({ get: async () => null })
  })
})
