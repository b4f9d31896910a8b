import { describe, expect, it } from 'vitest'
import { SessionStore } from '../src/session-store.js'

describe('SessionStore', () => {
  it('gives every session a fresh 256-bit id', () => {
    const store = new SessionStore(60_000)
    const first = store.create({})
    const second = store.create({})

    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(second).not.toBe(first)
  })

  it('forgets a session once its lifetime is over, and drops it on the next create', () => {
    let now = 1_000
    const store = new SessionStore(60_000, () => now)
    const id = store.create({ pendingAuthorization: { state: 's', codeVerifier: 'v' } })

    now += 59_999
    expect(store.get(id)?.pendingAuthorization?.state).toBe('s')
    now += 1
    expect(store.get(id)).toBeUndefined()
    store.create({})
    expect(store.size).toBe(1)
  })

  it('returns nothing for an unknown or missing id, and deletes', () => {
    const store = new SessionStore(60_000)
    const id = store.create({})

    expect(store.get('unknown')).toBeUndefined()
    expect(store.get(undefined)).toBeUndefined()
    store.delete(id)
    expect(store.get(id)).toBeUndefined()
  })
})
