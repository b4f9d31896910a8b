/** A real `redis-server` and `redis` clients for the DESIGN §9 fleet tests. */
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll } from 'vitest'

export type Redis = ReturnType<typeof createClient>

/** Starts one Redis for the file and closes every connection opened through `connect()`. */
export function useRedis(): { server: () => RedisServer; connect: () => Promise<Redis> } {
  let server: RedisServer | undefined
  const clients: Redis[] = []
  beforeAll(async () => {
    server = await startRedisServer()
  })
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined)
    await server?.stop()
  })
  return {
    server: () => {
      if (server === undefined) throw new Error('redis not started')
      return server
    },
    connect: async () => {
      if (server === undefined) throw new Error('redis not started')
      const client = createClient({ url: server.url })
      client.on('error', () => undefined)
      await client.connect()
      clients.push(client)
      return client
    },
  }
}
