import type { BackendTokens, Client } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'

/**
 * Backend tokens every process of a service shares through Redis: one token request per expiry
 * window for the whole fleet. `close` lets go of the connection when the process stops.
 */
export async function fleetTokens(
  client: Client,
  redisUrl: string,
  encryptionKey: Uint8Array, // 32 bytes from your secrets manager, the same in every process
): Promise<{ tokens: BackendTokens; close: () => Promise<void> }> {
  const redis = await createClient({ url: redisUrl }).connect()
  const store = redisStore(redis, {
    prefix: 'prod:', // optional: keeps environments apart in one Redis
    encryptionKey, // optional: every value sealed (AES-256-GCM), no token text at rest
  })
  const tokens = client.backendTokens({ scopes: ['system/Patient.rs'], store })
  const close = async () => {
    await redis.quit()
  }
  return { tokens, close }
}
