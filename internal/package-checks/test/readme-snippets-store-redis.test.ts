/**
 * Runs the code the README of @fhir-auth/store-redis shows (test/readme-snippets/
 * store-redis-fleet.ts, kept identical by readme-sync.test.ts) on a real `redis-server`: two
 * clients — two processes of a fleet — share one token, and Redis holds it sealed. The token
 * endpoint is scripted: the store is what this snippet is about.
 */
import { randomBytes } from 'node:crypto'
import { Client } from '@fhir-auth/client'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fleetTokens } from './readme-snippets/store-redis-fleet.js'
import { p384PemKeyPair } from './support/keys.js'
import { jsonResponse, scriptedFetch } from './support/scripted-fetch.js'

const baseUrl = 'https://ehr.example.org/fhir'
const configuration = {
  token_endpoint: 'https://ehr.example.org/auth/token',
  grant_types_supported: ['client_credentials'],
  capabilities: ['client-confidential-asymmetric'],
  token_endpoint_auth_methods_supported: ['private_key_jwt'],
  token_endpoint_auth_signing_alg_values_supported: ['ES384'],
}

let server: RedisServer

beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(async () => {
  await server?.stop()
})

describe('README of @fhir-auth/store-redis: a fleet sharing Redis', () => {
  it('two clients get one token with one request; Redis holds it sealed under the prefix', async () => {
    const { privateKey: privateKeyPem } = p384PemKeyPair()
    const discovery = {
      method: 'GET' as const,
      url: `${baseUrl}/.well-known/smart-configuration`,
      respond: () => jsonResponse(configuration),
    }
    const fetch = scriptedFetch([
      discovery,
      {
        method: 'POST',
        url: configuration.token_endpoint,
        respond: () =>
          jsonResponse({
            access_token: 'fleet-access-token',
            token_type: 'Bearer',
            expires_in: 300,
            scope: 'system/Patient.rs',
          }),
      },
      discovery,
    ])
    const process = () =>
      new Client(
        { baseUrl, clientId: 'my-service', privateKey: privateKeyPem, kid: 'key-1' },
        { clientType: 'confidential_asymmetric', fetch: fetch.fetch },
      )
    const encryptionKey = randomBytes(32)
    const first = await fleetTokens(process(), server.url, encryptionKey)
    const second = await fleetTokens(process(), server.url, encryptionKey)
    try {
      expect(await first.tokens.accessToken()).toBe('fleet-access-token')
      expect(await second.tokens.accessToken()).toBe('fleet-access-token')
      fetch.assertAllUsed()
      expect(fetch.requests.filter((request) => request.method === 'POST')).toHaveLength(1)

      const redis = await createClient({ url: server.url }).connect()
      try {
        const keys = await redis.keys('*')
        expect(keys.length).toBeGreaterThan(0)
        for (const key of keys) {
          expect(key.startsWith('prod:fhir-auth:')).toBe(true)
          expect(await redis.get(key)).toMatch(/^fa1\./)
        }
      } finally {
        await redis.quit()
      }
    } finally {
      await Promise.all([first.close(), second.close()])
    }
  })
})
