/**
 * Runs the code the README of @fhir-auth/store-redis shows (test/readme-snippets/
 * store-redis-fleet.ts, kept identical by readme-sync.test.ts) on a real `redis-server`: two
 * clients — two processes of a fleet — share one token, and Redis holds it sealed. The token
 * endpoint is scripted: the store is what this snippet is about.
 */
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Client } from '@fhir-auth/client'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fleetTokens } from './readme-snippets/store-redis-fleet.js'
import { sessionServer } from './readme-snippets/store-redis-sessions.js'
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

describe('docs/guides/tokens-over-time.md: a web server whose sessions live in Redis', () => {
  it('two processes share one session: signed in on one, refreshed once on the other, read on both', async () => {
    const smart = {
      authorization_endpoint: 'https://ehr.example.org/auth/authorize',
      token_endpoint: configuration.token_endpoint,
      grant_types_supported: ['authorization_code', 'refresh_token'],
      capabilities: ['launch-standalone', 'client-public'],
      code_challenge_methods_supported: ['S256'],
    }
    const discovery = {
      method: 'GET' as const,
      url: `${baseUrl}/.well-known/smart-configuration`,
      respond: () => jsonResponse(smart),
    }
    const tokens = (generation: number) => () =>
      jsonResponse({
        access_token: `access-${generation}`,
        token_type: 'Bearer',
        expires_in: 300,
        refresh_token: `refresh-${generation}`,
        scope: 'launch/patient patient/*.rs offline_access',
        patient: 'p1',
      })
    const patient = {
      method: 'GET' as const,
      url: `${baseUrl}/Patient/p1`,
      respond: (request: { headers: Headers }) =>
        jsonResponse({
          resourceType: 'Patient',
          id: 'p1',
          bearer: request.headers.get('authorization'),
        }),
    }
    const fetch = scriptedFetch([
      discovery,
      { method: 'POST', url: smart.token_endpoint, respond: tokens(1) },
      patient,
      discovery,
      { method: 'POST', url: smart.token_endpoint, respond: tokens(2) },
      patient,
      patient,
    ])
    // The second process runs 250 s later: the first access token is about to expire there.
    const process = (offsetMs: number) =>
      new Client(
        {
          baseUrl,
          clientId: 'my-app',
          redirectUri: 'https://app.example.org/callback',
          scopes: ['launch/patient', 'patient/*.rs', 'offline_access'],
        },
        { fetch: fetch.fetch, now: () => new Date(Date.now() + offsetMs) },
      )
    const encryptionKey = randomBytes(32)
    const first = await sessionServer(process(0), server.url, encryptionKey)
    const second = await sessionServer(process(250_000), server.url, encryptionKey)
    const origins = await Promise.all(
      [first, second].map(
        ({ server: web }) =>
          new Promise<string>((resolve) =>
            web.listen(0, '127.0.0.1', () => {
              resolve(`http://127.0.0.1:${(web.address() as AddressInfo).port}`)
            }),
          ),
      ),
    )
    const [one, two] = origins as [string, string]
    const get = (url: string, cookie?: string) =>
      globalThis.fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} })
    try {
      const login = await get(`${one}/login`)
      const state = new URL(login.headers.get('location') ?? '').searchParams.get('state')
      const launchCookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string
      expect(launchCookie).toBe(`launch=${state}`)
      const signedIn = await get(`${one}/callback?code=the-code&state=${state}`, launchCookie)
      expect(signedIn.status).toBe(303)
      const sid = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string
      expect(sid).toMatch(/^sid=[\w-]{43}$/)

      expect((await (await get(`${one}/`, sid)).json()).bearer).toBe('Bearer access-1')
      expect((await (await get(`${two}/`, sid)).json()).bearer).toBe('Bearer access-2')
      // The first process opens the tokens the second one refreshed: no request of its own.
      expect((await (await get(`${one}/`, sid)).json()).bearer).toBe('Bearer access-2')
      fetch.assertAllUsed()
      const refreshes = fetch.requests.filter((request) =>
        String(request.body ?? '').includes('grant_type=refresh_token'),
      )
      expect(refreshes).toHaveLength(1)

      const redis = await createClient({ url: server.url }).connect()
      try {
        for (const key of await redis.keys('fhir-auth:session:*')) {
          expect(key).not.toContain(sid.slice(4))
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
