/**
 * DESIGN §8 probe, `beginAuthorization`: the launch record it keeps (its members, a `fhir-auth:`
 * key derived from state, 600 s), the nonce it sends with `openid`, and the stores it refuses.
 * Written from DESIGN's words only, driving the public entries as a black box.
 */
import { createHash } from 'node:crypto'
import {
  ConfigurationError,
  FhirAuthError,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/client'
import { failureOf, rejectionOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { AUTHORIZE, REDIRECT, SCOPES } from './support/fake-smart-server.js'
import { begin, freshProbe } from './support/probe-client.js'
import { spyStore } from './support/spy-store.js'

describe('§8 beginAuthorization', () => {
  it('saves { state, codeVerifier, nonce, redirectUri, scopes, issuer, createdAt } under a fhir-auth: key derived from state, for 600 s', async () => {
    const { server, client } = freshProbe()
    const { store, writes, keptRecord } = spyStore()
    const { begun, url } = await begin(client, server, store)
    expect(writes()).toHaveLength(1)
    const [key, , ttl] = (writes()[0]?.args ?? []) as [string, string, number]
    expect(key.startsWith('fhir-auth:')).toBe(true)
    expect(key.includes(begun.state)).toBe(false)
    expect(ttl).toBe(600)
    const record = keptRecord()
    expect(record.state).toBe(begun.state)
    expect(typeof record.codeVerifier).toBe('string')
    expect(record.nonce).toBe(url.searchParams.get('nonce'))
    expect(record.redirectUri).toBe(REDIRECT)
    expect(record.scopes).toEqual(SCOPES)
    expect(typeof record.issuer).toBe('string')
    expect(record.createdAt).toBeDefined()
    // the verifier kept is the one the challenge was made from
    const challenge = createHash('sha256').update(String(record.codeVerifier)).digest('base64url')
    expect(url.searchParams.get('code_challenge')).toBe(challenge)
    // the result has what to redirect to, not the secret verifier (it is in the store)
    expect(begun.authUrl.startsWith(`${AUTHORIZE}?`)).toBe(true)
  })

  it('sends a fresh nonce of at least 128 bits when the scopes include openid', async () => {
    const { server, client } = freshProbe()
    const store = memoryStore()
    const first = (await begin(client, server, store)).url.searchParams.get('nonce')
    const second = (await begin(client, server, store)).url.searchParams.get('nonce')
    expect(first).not.toBeNull()
    expect(second).not.toBeNull()
    expect(first).not.toBe(second)
    // 128 bits: at least 22 base64url characters (or 32 hex)
    expect(String(first).length).toBeGreaterThanOrEqual(22)
  })

  it('sends no nonce and keeps none without openid', async () => {
    const { server, client } = freshProbe({}, {}, { scopes: ['launch/patient', 'patient/*.rs'] })
    const { store, keptRecord } = spyStore()
    const { url } = await begin(client, server, store)
    expect(url.searchParams.has('nonce')).toBe(false)
    expect(keptRecord().nonce).toBeUndefined()
  })

  it('customScopes with openid also get a nonce', async () => {
    const { client } = freshProbe({}, {}, { scopes: ['patient/*.rs'] })
    const begun = await client.beginAuthorization({
      store: memoryStore(),
      customScopes: ['openid', 'fhirUser'],
    })
    expect(new URL(begun.authUrl).searchParams.get('nonce')).toMatch(/^.{22,}$/)
  })

  it('leaves authorizationUrl unchanged: no nonce even with openid', async () => {
    const { client } = freshProbe()
    const request = await client.authorizationUrl()
    expect(new URL(request.authUrl).searchParams.has('nonce')).toBe(false)
  })

  it('refuses a store of the wrong type with ConfigurationError on store, sending nothing', async () => {
    const { server, client } = freshProbe()
    for (const store of ['memory', 42, {}, { get: () => 1 }]) {
      const error = await failureOf(
        client.beginAuthorization({ store: store as never }),
        ConfigurationError,
      )
      expect(error.invalidAttribute).toBe('store')
    }
    expect(server.tokenRequests()).toHaveLength(0)
  })

  /** A store that keeps nothing: every write fails with `failure()`. */
  const refusingWrites = (failure: () => Promise<never>): KeyValueStore => ({
    get: async () => undefined,
    set: failure,
    delete: async () => undefined,
    setIfAbsent: failure,
  })

  it('turns a store whose set/setIfAbsent throws into a typed error naming no secret', async () => {
    const { client } = freshProbe()
    const failing = refusingWrites(async () => {
      throw new Error('disk full')
    })
    const error = await rejectionOf(client.beginAuthorization({ store: failing }))
    expect(error).toBeInstanceOf(FhirAuthError)
  })

  it('does not report success when a store answers setIfAbsent with a non-boolean or set rejects with a non-Error', async () => {
    const { client } = freshProbe()
    const odd = refusingWrites(() => Promise.reject('nope'))
    const error = await rejectionOf(client.beginAuthorization({ store: odd }))
    expect(error).toBeInstanceOf(FhirAuthError)
  })
})
