import { describe, expect, it, vi } from 'vitest'
import { BoundedCache, parseWithCache } from '../src/jws.js'

describe('BoundedCache', () => {
  it('keeps at most its capacity, evicting the least recently used entry', () => {
    const cache = new BoundedCache<number>(2)
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
    const cache = new BoundedCache<string>(2)
    cache.set('a', 'first')
    cache.set('a', 'second')
    expect(cache.size).toBe(1)
    expect(cache.get('a')).toBe('second')
  })
})

describe('parseWithCache', () => {
  const parse = (der: Uint8Array) => ({ der, first: der[0] })

  it('parses the same bytes once, from a private copy', () => {
    const cache = new BoundedCache<ReturnType<typeof parse>>(4)
    const parser = vi.fn(parse)
    const input = new Uint8Array([1, 2, 3])
    const first = parseWithCache(input, cache, parser)
    expect(first.der).not.toBe(input)
    input[0] = 9
    expect(first.first).toBe(1)
    expect(parseWithCache(new Uint8Array([1, 2, 3]), cache, parser)).toBe(first)
    expect(parser).toHaveBeenCalledOnce()
    expect(parseWithCache(new Uint8Array([1, 2, 4]), cache, parser)).not.toBe(first)
    expect(parser).toHaveBeenCalledTimes(2)
  })

  it('parses again when a caller changed a cached result', () => {
    const cache = new BoundedCache<ReturnType<typeof parse>>(4)
    const first = parseWithCache(new Uint8Array([1, 2, 3]), cache, parse)
    first.der[2] = 7
    const second = parseWithCache(new Uint8Array([1, 2, 3]), cache, parse)
    expect(second).not.toBe(first)
    expect(second.der).toEqual(new Uint8Array([1, 2, 3]))
  })
})
