/**
 * `client.sessions()` with core's memory store: several clients sharing one store stand for the
 * processes of a fleet. A rotating token endpoint (a spent refresh token is `invalid_grant`)
 * shows one refresh per expiry window and no rotated token lost; bad ids, altered or foreign
 * values, and a failing or hanging store end in `undefined` or a typed error, never a secret.
 */
import {
  ConfigurationError,
  type KeyValueStore,
  memoryStore,
  StoreError,
  TokenError,
} from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { Client } from '../src/index.js'
import {
  baseUrl,
  capturingLogger,
  configurationError,
  configurationRejection,
  discoveryUrl,
  fakeServer,
  json,
  rejection,
  smartConfiguration,
} from './support.js'

const start = new Date('2026-11-28T12:00:00Z').getTime()

/** A token endpoint that rotates refresh tokens and refuses a spent one. */
function rotatingServer() {
  let issued = 0
  const live = new Set(['rt-0'])
  let refreshes = 0
  let invalidGrants = 0
  const server = fakeServer({
    [discoveryUrl]: () => json(smartConfiguration),
    [smartConfiguration.token_endpoint]: (request) => {
      const form = new URLSearchParams(request.bodyText)
      const token = form.get('refresh_token') ?? ''
      refreshes += 1
      if (!live.delete(token)) {
        invalidGrants += 1
        return json({ error: 'invalid_grant' }, 400)
      }
      issued += 1
      live.add(`rt-${issued}`)
      return json({
        access_token: `at-${issued}`,
        token_type: 'Bearer',
        expires_in: 300,
        refresh_token: `rt-${issued}`,
      })
    },
    [`${baseUrl}/Patient/p1`]: () => json({ resourceType: 'Patient', id: 'p1' }),
  })
  return {
    server,
    refreshes: () => refreshes,
    invalidGrants: () => invalidGrants,
  }
}

/** A client (one "process") on `fetch`, with a clock `offset()` ms after `start`. */
function processClient(
  fetch: ReturnType<typeof rotatingServer>['server']['fetch'],
  offset: () => number,
  logger = capturingLogger().logger,
) {
  return new Client(
    { baseUrl, clientId: 'app', redirectUri: 'https://app.example.org/cb' },
    { fetch, logger, now: () => new Date(start + offset()), timeoutMs: 2_000 },
  )
}

const firstTokens = {
  access_token: 'at-0',
  token_type: 'Bearer',
  expires_in: 300,
  refresh_token: 'rt-0',
}

describe('a session shared by several processes through one store', () => {
  it('4 processes × 10 concurrent fetches per window: one refresh per window, no invalid_grant', async () => {
    const { server, refreshes, invalidGrants } = rotatingServer()
    const store = memoryStore()
    let offset = 0
    const clients = Array.from({ length: 4 }, () => processClient(server.fetch, () => offset))
    const [first] = clients as [Client, ...Client[]]
    const id = await first.sessions({ store }).save(first.resumeSession(firstTokens))
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const sessions = await Promise.all(clients.map((client) => client.sessions({ store }).open(id)))
    for (const window of [1, 2, 3]) {
      // Past the renewal point (60 s before expiry) of the tokens of the window before.
      offset = window * 250_000
      const before = refreshes()
      const statuses = await Promise.all(
        sessions.flatMap((session) =>
          Array.from({ length: 10 }, () =>
            session?.fetch('Patient/p1').then((response) => response.status),
          ),
        ),
      )
      expect(statuses).toEqual(Array(40).fill(200))
      expect(refreshes() - before).toBe(1)
    }
    expect(invalidGrants()).toBe(0)
    // Every process ends on the third refresh's tokens.
    for (const session of sessions) expect(session?.tokens.accessToken).toBe('at-3')
  })

  it('the session given to save refreshes under the store lock too, and keeps its own onTokens', async () => {
    const { server, refreshes, invalidGrants } = rotatingServer()
    const store = memoryStore()
    let offset = 0
    const [a, b] = [
      processClient(server.fetch, () => offset),
      processClient(server.fetch, () => offset),
    ]
    const heard: string[] = []
    const saved = a.resumeSession(firstTokens, {
      onTokens: async (tokens) => {
        // Called after the store holds the new tokens.
        const inStore = await b.sessions({ store }).open(id)
        heard.push(`${tokens.accessToken}:${inStore?.tokens.accessToken}`)
      },
    })
    const id = await a.sessions({ store }).save(saved)
    const opened = await b.sessions({ store }).open(id)
    for (const window of [1, 2]) {
      offset = window * 250_000
      const tokens = await Promise.all([
        ...Array.from({ length: 5 }, () => saved.accessToken()),
        ...Array.from({ length: 5 }, () => opened?.accessToken()),
      ])
      expect(new Set(tokens)).toEqual(new Set([`at-${window}`]))
    }
    expect(refreshes()).toBe(2)
    expect(invalidGrants()).toBe(0)
    // The saved session's own listener heard each new token, after the store held it.
    expect(heard).toEqual(['at-1:at-1', 'at-2:at-2'])
  })

  it('onTokens given to open fires after the store holds the new tokens', async () => {
    const { server } = rotatingServer()
    const store = memoryStore()
    let offset = 0
    const client = processClient(server.fetch, () => offset)
    const sessions = client.sessions({ store })
    const id = await sessions.save(client.resumeSession(firstTokens))
    const seen: string[] = []
    const session = await sessions.open(id, {
      onTokens: async (tokens) => {
        const reopened = await sessions.open(id)
        seen.push(`${tokens.accessToken}:${reopened?.tokens.accessToken}`)
      },
    })
    offset = 250_000
    await session?.accessToken()
    expect(seen).toEqual(['at-1:at-1'])
  })

  it('a session refreshed by another process is taken from the store: no request', async () => {
    const { server, refreshes } = rotatingServer()
    const store = memoryStore()
    let offset = 0
    const [a, b] = [
      processClient(server.fetch, () => offset),
      processClient(server.fetch, () => offset),
    ]
    const id = await a.sessions({ store }).save(a.resumeSession(firstTokens))
    const sessionA = await a.sessions({ store }).open(id)
    const sessionB = await b.sessions({ store }).open(id)
    offset = 250_000
    expect(await sessionA?.accessToken()).toBe('at-1')
    expect(await sessionB?.accessToken()).toBe('at-1')
    expect(refreshes()).toBe(1)
  })

  it('a fresh token costs no store read', async () => {
    const { server } = rotatingServer()
    let reads = 0
    const inner = memoryStore()
    const store: KeyValueStore = {
      ...inner,
      get: (key) => {
        reads += 1
        return inner.get(key)
      },
      set: inner.set.bind(inner),
      delete: inner.delete.bind(inner),
      setIfAbsent: inner.setIfAbsent.bind(inner),
    }
    const client = processClient(server.fetch, () => 0)
    const sessions = client.sessions({ store })
    const session = await sessions.open(await sessions.save(client.resumeSession(firstTokens)))
    const before = reads
    for (let call = 0; call < 20; call++) await session?.accessToken()
    expect(reads - before).toBe(0)
  })

  it('a deleted session is not brought back by a refresh, and signOut resolves false', async () => {
    const { server, refreshes } = rotatingServer()
    const store = memoryStore()
    let offset = 0
    const client = processClient(server.fetch, () => offset)
    const sessions = client.sessions({ store })
    const id = await sessions.save(client.resumeSession(firstTokens))
    const session = await sessions.open(id)
    expect(await sessions.signOut(id)).toBe(false)
    offset = 250_000
    await expect(session?.accessToken()).rejects.toBeInstanceOf(TokenError)
    expect(refreshes()).toBe(0)
    expect(await sessions.open(id)).toBeUndefined()
  })
})

describe('bad input', () => {
  const setup = () => {
    const { server } = rotatingServer()
    const store = memoryStore()
    const captured = capturingLogger()
    const client = processClient(server.fetch, () => 0, captured.logger)
    return { store, captured, client, sessions: client.sessions({ store }) }
  }

  it('an id never given out, in any shape: undefined and a warning that names no id', async () => {
    const { sessions, captured } = setup()
    for (const id of ['', 'x', 'A'.repeat(43), 'not/a valid id']) {
      expect(await sessions.open(id)).toBeUndefined()
    }
    const warnings = captured.lines.filter((line) => line.level === 'warn')
    expect(warnings).toHaveLength(4)
    expect(captured.text()).not.toContain('A'.repeat(43))
    expect(captured.text()).not.toContain('not/a valid id')
  })

  it('an altered value and another client’s session: undefined, a warning without the tokens', async () => {
    const { store, sessions, captured, client } = setup()
    const id = await sessions.save(client.resumeSession(firstTokens))
    const [key] = [...(await keysOf(store, id))]
    await store.set(key as string, '{"v":1,"accessToken":"at-0"', 60)
    expect(await sessions.open(id)).toBeUndefined()
    const other = new Client(
      {
        baseUrl: 'https://other.example.org/fhir',
        clientId: 'app',
        redirectUri: 'https://app.example.org/cb',
      },
      { logger: captured.logger },
    )
    const otherId = await other.sessions({ store }).save(other.resumeSession(firstTokens))
    expect(await sessions.open(otherId)).toBeUndefined()
    // One warning for each value refused, and no other (no "unknown id" on top of it).
    const warnings = captured.lines.filter((line) => line.level === 'warn')
    expect(warnings.map((line) => (line.fields as { event?: string } | undefined)?.event)).toEqual([
      'sessions.stored_session_refused',
      'sessions.stored_session_refused',
    ])
    expect(captured.text()).not.toContain('rt-0')
    expect(captured.text()).not.toContain(otherId)
    expect(captured.text()).not.toContain(id)
  })

  it('the id is never in a key: the key holds the SHA-256 of the id', async () => {
    const { store, sessions, client } = setup()
    const id = await sessions.save(client.resumeSession(firstTokens))
    const keys = await keysOf(store, id)
    expect([...keys][0]).toMatch(/^fhir-auth:session:[A-Za-z0-9_-]{43}$/)
    expect([...keys][0]).not.toContain(id)
  })

  it('a store that fails or hangs: StoreError within the deadline', async () => {
    const { client } = setup()
    const failing: KeyValueStore = {
      get: () => Promise.reject(new Error('down: rt-0')),
      set: () => Promise.reject(new Error('down')),
      delete: () => Promise.reject(new Error('down')),
      setIfAbsent: () => Promise.reject(new Error('down')),
    }
    const hanging: KeyValueStore = {
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
      delete: () => new Promise(() => {}),
      setIfAbsent: () => new Promise(() => {}),
    }
    for (const store of [failing, hanging]) {
      const sessions = client.sessions({ store })
      const began = Date.now()
      const saved = await rejection(sessions.save(client.resumeSession(firstTokens)))
      expect(saved).toBeInstanceOf(StoreError)
      expect(saved.message).not.toContain('rt-0')
      const opened = await rejection(sessions.open('A'.repeat(43)))
      expect(opened).toBeInstanceOf(StoreError)
      expect(Date.now() - began).toBeLessThan(3_000)
    }
  })

  it('a store failing at refresh time: StoreError, nothing sent, the session kept', async () => {
    const { server, refreshes } = rotatingServer()
    const inner = memoryStore()
    let down = false
    const store: KeyValueStore = {
      get: (key) => (down ? Promise.reject(new Error('down')) : inner.get(key)),
      set: (key, value, ttl) => inner.set(key, value, ttl),
      delete: (key) => inner.delete(key),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    }
    let offset = 0
    const client = processClient(server.fetch, () => offset)
    const sessions = client.sessions({ store })
    const session = await sessions.open(await sessions.save(client.resumeSession(firstTokens)))
    down = true
    offset = 250_000
    expect(await rejection(session?.accessToken() as Promise<string>)).toBeInstanceOf(StoreError)
    expect(refreshes()).toBe(0)
    expect(session?.tokens.refreshToken).toBe('rt-0')
  })

  it('tokens a refresh could not write: StoreError, kept by the session, written by its next call', async () => {
    const { server, refreshes } = rotatingServer()
    const inner = memoryStore()
    let failWrites = false
    const store: KeyValueStore = {
      get: (key) => inner.get(key),
      set: (key, value, ttl) =>
        failWrites && key.startsWith('fhir-auth:session:')
          ? Promise.reject(new Error('down'))
          : inner.set(key, value, ttl),
      delete: (key) => inner.delete(key),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    }
    let offset = 0
    const client = processClient(server.fetch, () => offset)
    const sessions = client.sessions({ store })
    const id = await sessions.save(client.resumeSession(firstTokens))
    const delivered: string[] = []
    const session = await sessions.open(id, {
      onTokens: (tokens) => void delivered.push(tokens.accessToken),
    })
    failWrites = true
    offset = 250_000
    expect(await rejection(session?.accessToken() as Promise<string>)).toBeInstanceOf(StoreError)
    expect(session?.tokens.refreshToken).toBe('rt-1')
    expect(delivered).toEqual([])
    // The store answers again (past the guarded store's pause): the next call writes them.
    failWrites = false
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect(await session?.accessToken()).toBe('at-1')
    expect(delivered).toEqual(['at-1'])
    expect((await client.sessions({ store }).open(id))?.tokens.refreshToken).toBe('rt-1')
    expect(refreshes()).toBe(1)
  })

  it('every write keeps the session for ttlSeconds (12 h by default); another client’s session is not saved', async () => {
    const { server } = rotatingServer()
    const inner = memoryStore()
    const ttls: number[] = []
    const store: KeyValueStore = {
      get: (key) => inner.get(key),
      set: (key, value, ttl) => {
        if (key.startsWith('fhir-auth:session:')) ttls.push(ttl)
        return inner.set(key, value, ttl)
      },
      delete: (key) => inner.delete(key),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    }
    let offset = 0
    const client = processClient(server.fetch, () => offset)
    await client.sessions({ store }).save(client.resumeSession(firstTokens))
    const sessions = client.sessions({ store, ttlSeconds: 3600 })
    const session = await sessions.open(await sessions.save(client.resumeSession(firstTokens)))
    offset = 250_000
    await session?.accessToken()
    expect(ttls).toEqual([12 * 3600, 3600, 3600])
    const other = new Client({
      baseUrl: 'https://other.example.org/fhir',
      clientId: 'app',
      redirectUri: 'https://app.example.org/cb',
    })
    const foreign = await configurationRejection(sessions.save(other.resumeSession(firstTokens)))
    expect(foreign.invalidAttribute).toBe('tokens')
  })

  it('unknown options and wrong types are ConfigurationErrors', async () => {
    const { client, sessions } = setup()
    expect(
      configurationError(() => client.sessions({ stor: memoryStore() } as never)).message,
    ).toContain('unknown option')
    expect(configurationError(() => client.sessions({ ttlSeconds: 0 })).invalidAttribute).toBe(
      'ttlSeconds',
    )
    expect(configurationError(() => client.sessions({ store: {} as never })).invalidAttribute).toBe(
      'store',
    )
    const unknown = await configurationRejection(
      sessions.open('A'.repeat(43), { onToken: () => {} } as never),
    )
    expect(unknown.message).toContain('unknown option')
    expect((await configurationRejection(sessions.open(42 as never))).invalidAttribute).toBe('id')
    expect((await configurationRejection(sessions.save({} as never))).invalidAttribute).toBe(
      'session',
    )
    expect(configurationError(() => client.sessions('store' as never))).toBeInstanceOf(
      ConfigurationError,
    )
  })
})

/** The store keys that hold a value now, besides the lock keys (memoryStore has no listing). */
async function keysOf(store: KeyValueStore, id: string): Promise<Set<string>> {
  const { sha256Base64Url } = await import('@fhir-auth/core/internal')
  const key = `fhir-auth:session:${await sha256Base64Url(id)}`
  expect(await store.get(key)).toBeTypeOf('string')
  return new Set([key])
}
