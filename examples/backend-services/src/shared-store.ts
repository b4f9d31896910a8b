import type { KeyValueStore } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'

/** A connected shared store and how to let go of it. */
export interface SharedStore {
  readonly store: KeyValueStore
  close(): Promise<void>
}

/**
 * The store a fleet of this service shares: Redis, every value sealed with AES-256-GCM when an
 * encryption key is given (the same 32 bytes in every process, from your secrets manager), so
 * Redis holds no token text.
 */
export async function connectSharedStore(
  redisUrl: string,
  encryptionKey?: Uint8Array,
): Promise<SharedStore> {
  const redis = await createClient({ url: redisUrl }).connect()
  const store = redisStore(redis, { prefix: 'backend-service:', encryptionKey })
  return { store, close: () => redis.quit().then(() => undefined) }
}
