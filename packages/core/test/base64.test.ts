import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  base64UrlEncodeText,
} from '../src/index.js'

describe('base64url', () => {
  it('matches Node Buffer for random bytes and round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const encoded = base64UrlEncode(bytes)
        expect(encoded).toBe(Buffer.from(bytes).toString('base64url'))
        expect(base64UrlDecode(encoded)).toEqual(bytes)
      }),
    )
  })

  it('encodes UTF-8 text', () => {
    expect(base64UrlEncodeText('{"alg":"ES384"}')).toBe('eyJhbGciOiJFUzM4NCJ9')
    expect(base64UrlEncodeText('é')).toBe(Buffer.from('é').toString('base64url'))
  })

  it.each(['abc=', 'ab+c', 'ab/c', 'a', 'ab c', 'é', 'AB==', 'AC'])('rejects %j', (text) => {
    expect(base64UrlDecode(text)).toBeUndefined()
  })
})

describe('base64 (standard, padded)', () => {
  it('matches Node Buffer and round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const encoded = base64Encode(bytes)
        expect(encoded).toBe(Buffer.from(bytes).toString('base64'))
        expect(base64Decode(encoded)).toEqual(bytes)
      }),
    )
  })

  it.each(['abc', 'ab-_', 'a===', '====', 'ab\ncd'])('rejects %j', (text) => {
    expect(base64Decode(text)).toBeUndefined()
  })
})
