/**
 * DESIGN §9: "A store that fails or hangs is bounded by the same deadline: the caller still gets
 * a token (requested directly) or a typed error, never a hang or a raw store error."
 */
import { FhirAuthError, type KeyValueStore, TokenError } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { smartClient, smartServer } from './support/smart-token-server.js'

class StoreBoom extends Error {
  override name = 'StoreBoom'
}

const never = () => new Promise<never>(() => undefined)

function storeWith(behaviour: (operation: string) => unknown): KeyValueStore {
  return {
    get: async () => behaviour('get') as string,
    set: async () => {
      behaviour('set')
    },
    delete: async () => {
      behaviour('delete')
    },
    setIfAbsent: async () => behaviour('setIfAbsent') as boolean,
  }
}

const faultyStores: Array<[string, () => KeyValueStore]> = [
  [
    'rejects every call',
    () =>
      storeWith(() => {
        throw new StoreBoom('redis down: secret-value')
      }),
  ],
  [
    'throws synchronously from every call',
    () => ({
      get: () => {
        throw new StoreBoom('sync get')
      },
      set: () => {
        throw new StoreBoom('sync set')
      },
      delete: () => {
        throw new StoreBoom('sync delete')
      },
      setIfAbsent: () => {
        throw new StoreBoom('sync setIfAbsent')
      },
    }),
  ],
  ['hangs on every call', () => ({ get: never, set: never, delete: never, setIfAbsent: never })],
  [
    'returns a number from get',
    () => storeWith((op) => (op === 'get' ? 42 : op === 'setIfAbsent' ? true : undefined)),
  ],
  [
    'returns an object from get',
    () =>
      storeWith((op) =>
        op === 'get' ? { accessToken: 'x' } : op === 'setIfAbsent' ? true : undefined,
      ),
  ],
  [
    'returns text that is not JSON',
    () =>
      storeWith((op) => (op === 'get' ? 'not json {' : op === 'setIfAbsent' ? true : undefined)),
  ],
  [
    'returns JSON of the wrong shape',
    () =>
      storeWith((op) =>
        op === 'get'
          ? '{"accessToken":17,"expiresAt":"soon"}'
          : op === 'setIfAbsent'
            ? true
            : undefined,
      ),
  ],
  [
    'returns a record whose token cannot go into a header',
    () =>
      storeWith((op) =>
        op === 'get'
          ? JSON.stringify({
              accessToken: 'bad\r\ntoken',
              tokenType: 'Bearer',
              expiresAt: 4102444800000,
              scope: 'system/Patient.rs',
            })
          : op === 'setIfAbsent'
            ? true
            : undefined,
      ),
  ],
  [
    'answers setIfAbsent with a string',
    () => storeWith((op) => (op === 'setIfAbsent' ? 'yes' : undefined)),
  ],
  [
    'answers setIfAbsent with false forever (a lock never freed)',
    () => storeWith((op) => (op === 'setIfAbsent' ? false : undefined)),
  ],
  [
    'never answers get, while the rest works',
    () => ({
      get: never,
      set: async () => undefined,
      delete: async () => undefined,
      setIfAbsent: async () => true,
    }),
  ],
]

describe('DESIGN §9 a store that fails, hangs or answers garbage', () => {
  it.each(faultyStores)('a store that %s: the caller still gets a token', async (_label, make) => {
    const server = smartServer({ expiresIn: 300 })
    const tokens = smartClient(server, { timeoutMs: 1_000 }).backendTokens({ store: make() })
    const token = await tokens.accessToken()
    expect(token).toMatch(/^token-\d+$/)
    expect(server.tokenRequests()).toBeGreaterThanOrEqual(1)
  })

  it.each(faultyStores)(
    'a store that %s: fetch still sends the request with a token',
    async (_label, make) => {
      const server = smartServer({ expiresIn: 300 })
      const tokens = smartClient(server, { timeoutMs: 1_000 }).backendTokens({ store: make() })
      const response = await tokens.fetch('Patient')
      expect(response.status).toBe(200)
      expect(server.apiRequests[0]?.headers.get('authorization')).toMatch(/^Bearer token-\d+$/)
    },
  )

  it('a failing store plus a failing token endpoint is the typed TokenError, not the store error', async () => {
    const server = smartServer({ status: 400 })
    const store = faultyStores[0]?.[1]() as KeyValueStore
    const tokens = smartClient(server, { timeoutMs: 1_000 }).backendTokens({ store })
    const error = await failureOf(tokens.accessToken(), TokenError)
    expect(error).toBeInstanceOf(FhirAuthError)
    expect(String(error.message)).not.toContain('secret-value')
  })

  it('invalidate on a failing or hanging store resolves or fails typed, never with the raw error', async () => {
    for (const [, make] of faultyStores.slice(0, 3)) {
      const server = smartServer({ expiresIn: 300 })
      const tokens = smartClient(server, { timeoutMs: 1_000 }).backendTokens({ store: make() })
      const outcome = await tokens.invalidate().then(
        () => 'resolved',
        (error: unknown) => error,
      )
      if (outcome !== 'resolved') expect(outcome).toBeInstanceOf(FhirAuthError)
      expect(outcome).not.toBeInstanceOf(StoreBoom)
    }
  })

  it('a store that fails from the start: after the outage concurrent callers still share one request', async () => {
    const server = smartServer({ expiresIn: 300 })
    const store = faultyStores[0]?.[1]() as KeyValueStore
    const tokens = smartClient(server, { timeoutMs: 1_000 }).backendTokens({ store })
    server.hold()
    const calls = Array.from({ length: 10 }, () => tokens.accessToken())
    server.release()
    expect(new Set(await Promise.all(calls)).size).toBe(1)
    expect(server.tokenRequests()).toBe(1)
  })
})
