import {
  ConfigurationError,
  type KeyValueStore,
  StoreError,
  type StoreOperation,
} from '@fhir-auth/core'
import { checkStoreKey, checkStoreWrite } from '@fhir-auth/core/internal'
import { createSealer, type EncryptionKeyInput, type Sealer } from './sealing.js'
import { requireWellFormed } from './well-formed.js'

/**
 * The commands `redisStore` sends, as a client of the `redis` package (v5) offers them: the
 * object `createClient()` returns (connected) fits, and so does anything with these methods.
 */
export interface RedisClientLike {
  get(key: string): Promise<unknown>
  set(
    key: string,
    value: string,
    options: { expiration: { type: 'EX'; value: number }; condition?: 'NX' },
  ): Promise<unknown>
  del(key: string): Promise<unknown>
  getDel(key: string): Promise<unknown>
}

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** Put before every key, e.g. `'staging:'` to keep environments apart in one Redis. */
  readonly prefix?: string | undefined
  /**
   * 32 bytes or an AES-256-GCM `CryptoKey`: every value is sealed before it leaves the process,
   * so Redis (its dumps, its replicas, whoever can read it) holds no token or launch secret.
   */
  readonly encryptionKey?: EncryptionKeyInput | undefined
  /**
   * How long one command may take before it fails with a `StoreError` (default 5,000 ms). The
   * `redis` client queues commands while disconnected; without a bound a caller would wait for
   * the reconnection forever.
   */
  readonly commandTimeoutMs?: number | undefined
}

/**
 * A {@link KeyValueStore} on Redis, shared by every process that uses the same server: a fleet
 * asks for one backend token per expiry window, and a launch begun in one process can be
 * completed in another. `setIfAbsent` is `SET key value NX EX ttl`, `take` is `GETDEL` (both
 * atomic in Redis); times to live are whole seconds, rounded up. Keys, values and `prefix` must
 * be well-formed Unicode (no lone surrogate): Redis holds UTF-8, where such strings do not
 * round-trip, so they are refused with a `ConfigurationError` rather than stored changed.
 *
 * The client is the application's: connect it first; `redisStore` never connects, closes or
 * configures it.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { redisStore } from '@fhir-auth/store-redis'
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * const store = redisStore(redis, { encryptionKey: keyBytes })   // 32 bytes from your secrets manager
 * const tokens = client.backendTokens({ scopes: ['system/Patient.rs'], store })
 * ```
 * @throws ConfigurationError on `redisClient`, `prefix`, `encryptionKey` or `commandTimeoutMs`.
 * @see https://redis.io/docs/latest/commands/set/ Redis SET (NX, EX)
 * @see https://redis.io/docs/latest/commands/getdel/ Redis GETDEL
 */
export function redisStore(
  redis: RedisClientLike,
  options: RedisStoreOptions = {},
): Required<KeyValueStore> {
  checkClient(redis)
  const prefix = options.prefix ?? ''
  if (typeof prefix !== 'string') {
    throw new ConfigurationError({
      invalidAttribute: 'prefix',
      invalidValue: typeof prefix,
      message: 'prefix must be a string',
    })
  }
  requireWellFormed(prefix, 'prefix')
  const timeoutMs = checkTimeout(options.commandTimeoutMs ?? 5_000)
  const sealer: Sealer | undefined =
    options.encryptionKey === undefined ? undefined : createSealer(options.encryptionKey)

  const command = <T>(operation: StoreOperation, run: () => Promise<T>): Promise<T> =>
    withTimeout(operation, timeoutMs, run)

  const seal = async (key: string, value: string) =>
    sealer === undefined ? value : sealer.seal(key, value)

  const open = async (key: string, reply: unknown, operation: 'get' | 'take') => {
    const text = replyText(reply, operation)
    if (text === undefined || sealer === undefined) return text
    return sealer.open(key, text, operation)
  }

  const checkKey = (key: string) => {
    checkStoreKey(key)
    requireWellFormed(key, 'key')
  }
  const checkWrite = (key: string, value: string, ttlSeconds: number) => {
    checkStoreWrite(key, value, ttlSeconds)
    requireWellFormed(key, 'key')
    requireWellFormed(value, 'value')
  }

  return Object.freeze({
    async get(key: string) {
      checkKey(key)
      const name = prefix + key
      return open(name, await command('get', () => redis.get(name)), 'get')
    },
    async set(key: string, value: string, ttlSeconds: number) {
      checkWrite(key, value, ttlSeconds)
      const name = prefix + key
      if (ttlSeconds <= 0) {
        await command('set', () => redis.del(name))
        return
      }
      const sealed = await seal(name, value)
      const expiration = { type: 'EX', value: Math.ceil(ttlSeconds) } as const
      await command('set', () => redis.set(name, sealed, { expiration }))
    },
    async delete(key: string) {
      checkKey(key)
      const name = prefix + key
      await command('delete', () => redis.del(name))
    },
    async setIfAbsent(key: string, value: string, ttlSeconds: number) {
      checkWrite(key, value, ttlSeconds)
      if (ttlSeconds <= 0) return false
      const name = prefix + key
      const sealed = await seal(name, value)
      const expiration = { type: 'EX', value: Math.ceil(ttlSeconds) } as const
      const reply = await command('setIfAbsent', () =>
        redis.set(name, sealed, { expiration, condition: 'NX' }),
      )
      return reply === 'OK'
    },
    async take(key: string) {
      checkKey(key)
      const name = prefix + key
      return open(name, await command('take', () => redis.getDel(name)), 'take')
    },
  })
}

function checkClient(redis: unknown): void {
  const client = redis as Partial<Record<keyof RedisClientLike, unknown>> | null
  const methods = ['get', 'set', 'del', 'getDel'] as const
  if (
    typeof client === 'object' &&
    client !== null &&
    methods.every((m) => typeof client[m] === 'function')
  )
    return
  throw new ConfigurationError({
    invalidAttribute: 'redisClient',
    invalidValue: client === null ? 'null' : typeof redis,
    message:
      'redisStore needs a client of the redis package (v5): an object with get, set, del and getDel',
  })
}

function checkTimeout(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 2_147_483_647)
    return value
  throw new ConfigurationError({
    invalidAttribute: 'commandTimeoutMs',
    invalidValue: value,
    message: 'commandTimeoutMs must be an integer from 1 to 2147483647',
  })
}

/** A `GET`/`GETDEL` reply as text: a string, bytes (a client with a Buffer type mapping), or none. */
function replyText(reply: unknown, operation: StoreOperation): string | undefined {
  if (reply === null || reply === undefined) return undefined
  if (typeof reply === 'string') return reply
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply)
  throw new StoreError(operation, `Redis answered ${operation} with ${typeof reply}, not a string`)
}

/**
 * Runs one command, failing with a `StoreError` when it throws or takes longer than the bound.
 * Only the error's name is kept: a client's message can quote the command, and with it a value.
 */
async function withTimeout<T>(
  operation: StoreOperation,
  timeoutMs: number,
  run: () => Promise<T>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StoreError(operation, `Redis did not answer ${operation} within ${timeoutMs} ms`),
        ),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([run(), timeout])
  } catch (error) {
    if (error instanceof StoreError) throw error
    const name = error instanceof Error ? error.name : typeof error
    throw new StoreError(operation, `Redis refused ${operation} (${name})`)
  } finally {
    clearTimeout(timer)
  }
}
