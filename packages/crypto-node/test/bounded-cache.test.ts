import { describe, expect, it } from 'vitest'
import { createBoundedCache } from '../src/bounded-cache.js'

describe('createBoundedCache', () => {
  it('keeps at most its capacity, evicting the least recently used entry', () => {
    const cache = createBoundedCache<number>(2)
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.get('a')).toBe(1) // "a" is now the most recently used
    cache.set('c', 3)
    expect(cache.size).toBe(2)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe(1)
    expect(cache.get('c')).toBe(3)
  })

  it('replaces the value of an existing key without growing', () => {
    const cache = createBoundedCache<string>(2)
    cache.set('a', 'first')
    cache.set('a', 'second')
    expect(cache.size).toBe(1)
    expect(cache.get('a')).toBe('second')
  })
})
