import { createHash } from 'node:crypto'
import { type KeyValueStore, memoryStore } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { SessionStore } from '../src/session-store.js'

/** A memory store on a clock the test moves, that records the keys written. */
function store() {
  let now = Date.parse('2026-11-24T12:00:00Z')
  const inner = memoryStore({ now: () => new Date(now) })
  const keys: string[] = []
  const recording: KeyValueStore = {
    ...inner,
    set: async (key, value, ttl) => {
      keys.push(key)
      await inner.set(key, value, ttl)
    },
  }
  return { store: recording, keys, advance: (ms: number) => (now += ms) }
}

describe('SessionStore on a KeyValueStore', () => {
  it('gives every session a fresh 256-bit id, and keeps it under a hash of the id', async () => {
    const kept = store()
    const sessions = new SessionStore(kept.store, 60)
    const first = await sessions.create({})
    const second = await sessions.create({})

    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(second).not.toBe(first)
    const hash = createHash('sha256').update(first).digest('base64url')
    expect(kept.keys[0]).toBe(`web-app:session:${hash}`)
    expect(kept.keys.join(' ')).not.toContain(first)
  })

  it('forgets a session once its lifetime is over; an update starts it again', async () => {
    const kept = store()
    const sessions = new SessionStore(kept.store, 60)
    const id = await sessions.create({ pendingState: 's' })

    kept.advance(59_999)
    expect((await sessions.get(id))?.pendingState).toBe('s')
    await sessions.update(id, { pendingState: 't' })
    kept.advance(59_999)
    expect((await sessions.get(id))?.pendingState).toBe('t')
    kept.advance(1)
    expect(await sessions.get(id)).toBeUndefined()
  })

  it('take returns a session once, with or without the store’s take', async () => {
    const { take: _take, ...withoutTake } = memoryStore()
    for (const kept of [memoryStore(), withoutTake as KeyValueStore]) {
      const sessions = new SessionStore(kept, 60)
      const id = await sessions.create({ pendingState: 's' })
      expect((await sessions.take(id))?.pendingState).toBe('s')
      expect(await sessions.take(id)).toBeUndefined()
    }
  })

  it('returns nothing for an unknown or missing id, or an unreadable record', async () => {
    const kept = store()
    const sessions = new SessionStore(kept.store, 60)
    const id = await sessions.create({})
    expect(await sessions.get('unknown')).toBeUndefined()
    expect(await sessions.get(undefined)).toBeUndefined()
    expect(await sessions.get(id)).toEqual({})
    await kept.store.set(kept.keys[0] as string, 'not json', 60)
    expect(await sessions.get(id)).toBeUndefined()
  })
})
