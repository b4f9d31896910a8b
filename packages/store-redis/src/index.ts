/**
 * `@fhir-auth/store-redis`: a fhir-auth `KeyValueStore` on Redis, for fleets — one backend token
 * per expiry window for every process, launches completed by any process — with every value
 * sealed (AES-256-GCM) when an `encryptionKey` is given.
 *
 * @packageDocumentation
 */

export { type RedisClientLike, type RedisStoreOptions, redisStore } from './redis-store.js'
export type { EncryptionKeyInput } from './sealing.js'
