/**
 * DESIGN §8 probe, stores and exports: `memoryStore` (async, `setIfAbsent` and `take` once, TTL),
 * `webStorageStore` (sessionStorage by default; a storage that throws is a `StoreError`), and
 * what `@fhir-auth/client` re-exports from `@fhir-auth/core`. Written from DESIGN's words only,
 * driving the public entries as a black box.
 */
import * as clientEntry from '@fhir-auth/client'
import {
  AuthorizationError,
  ConfigurationError,
  IdTokenError,
  memoryStore,
  StoreError,
  webStorageStore,
} from '@fhir-auth/client'
import * as coreEntry from '@fhir-auth/core'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { begin, freshProbe } from './support/probe-client.js'

describe('§8 stores and exports', () => {
  it('memoryStore: async, setIfAbsent once, take once, ttl ends entries', async () => {
    let now = Date.now()
    const store = memoryStore({ now: () => new Date(now) })
    const pending = store.set('fhir-auth:t:a', 'one', 10)
    expect(pending).toBeInstanceOf(Promise)
    await pending
    expect(await store.get('fhir-auth:t:a')).toBe('one')
    expect(await store.setIfAbsent('fhir-auth:t:a', 'two', 10)).toBe(false)
    expect(await store.setIfAbsent('fhir-auth:t:b', 'two', 10)).toBe(true)
    expect(await store.take?.('fhir-auth:t:b')).toBe('two')
    expect(await store.take?.('fhir-auth:t:b')).toBeFalsy()
    now += 11_000
    expect(await store.get('fhir-auth:t:a')).toBeFalsy()
    await store.delete('fhir-auth:t:none')
  })

  it('webStorageStore defaults to sessionStorage (and is a ConfigurationError where there is none)', async () => {
    const globals = globalThis as { sessionStorage?: unknown }
    const previous = globals.sessionStorage
    const items = new Map<string, string>()
    try {
      delete globals.sessionStorage
      expect(() => webStorageStore()).toThrow(ConfigurationError)
      globals.sessionStorage = {
        getItem: (key: string) => items.get(key) ?? null,
        setItem: (key: string, value: string) => void items.set(key, value),
        removeItem: (key: string) => void items.delete(key),
      }
      const store = webStorageStore()
      const { server, client } = freshProbe()
      const { callback } = await begin(client, server, store)
      expect([...items.keys()].length).toBe(1)
      expect([...items.keys()].every((key) => key.startsWith('fhir-auth:'))).toBe(true)
      const session = await client.completeAuthorization(callback(), { store })
      expect(session.tokens.accessToken).toBe('at-1')
      expect(items.size).toBe(0)
    } finally {
      if (previous === undefined) delete globals.sessionStorage
      else globals.sessionStorage = previous
    }
  })

  it('a webStorageStore whose storage throws (quota) is a StoreError from beginAuthorization', async () => {
    const store = webStorageStore({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError')
      },
      removeItem: () => undefined,
    })
    const { client } = freshProbe()
    await failureOf(client.beginAuthorization({ store }), StoreError)
  })

  it('@fhir-auth/client re-exports the stores, TokenSet, Session, AuthorizationError and IdTokenError', () => {
    expect(clientEntry.memoryStore).toBe(coreEntry.memoryStore)
    expect(clientEntry.webStorageStore).toBe(coreEntry.webStorageStore)
    expect(clientEntry.TokenSet).toBe(coreEntry.TokenSet)
    expect(clientEntry.AuthorizationError).toBe(coreEntry.AuthorizationError)
    expect(clientEntry.IdTokenError).toBe(coreEntry.IdTokenError)
    expect(typeof clientEntry.Session).toBe('function')
    expect(new clientEntry.AuthorizationError({ error: 'x' })).toBeInstanceOf(
      coreEntry.FhirAuthError,
    )
  })

  it('the errors have stable codes and IdTokenError a reason', () => {
    const authorization = new AuthorizationError({ error: 'state_mismatch' })
    expect(authorization.error).toBe('state_mismatch')
    expect(typeof authorization.code).toBe('string')
    const idToken = new IdTokenError('nonce', 'nonce differs')
    expect(idToken.reason).toBe('nonce')
    expect(idToken.code).not.toBe(authorization.code)
    expect(StoreError).toBeDefined()
  })
})
