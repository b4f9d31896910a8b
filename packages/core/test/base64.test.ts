import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  base64Decode,
  base64Encode,
  base64UrlDecode,
  base64UrlEncode,
  base64UrlEncodeText,
} from '../src/index.js'

/** Reference encoders on the platform's own `btoa`, which every runtime has. */
function platformBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
}
function platformBase64Url(bytes: Uint8Array): string {
  return platformBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Fixed seeds: every run checks the same cases, so a failure replays anywhere. fast-check's
 * failure message prints the seed and the shrunk path (`fc.assert(property, { seed, path })`).
 */
const base64UrlSeed = 0x0b64_0001
const base64Seed = 0x0b64_0002

describe('base64url', () => {
  it('matches the platform btoa for random bytes and round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const encoded = base64UrlEncode(bytes)
        expect(encoded).toBe(platformBase64Url(bytes))
        expect(base64UrlDecode(encoded)).toEqual(bytes)
      }),
      { seed: base64UrlSeed, numRuns: 300 },
    )
  })

  it('encodes UTF-8 text', () => {
    expect(base64UrlEncodeText('{"alg":"ES384"}')).toBe('eyJhbGciOiJFUzM4NCJ9')
    expect(base64UrlEncodeText('é')).toBe(platformBase64Url(new TextEncoder().encode('é')))
    expect(base64UrlEncodeText('é')).toBe('w6k')
  })

  it.each(['abc=', 'ab+c', 'ab/c', 'a', 'ab c', 'é', 'AB==', 'AC'])('rejects %j', (text) => {
    expect(base64UrlDecode(text)).toBeUndefined()
  })
})

describe('base64 (standard, padded)', () => {
  it('matches the platform btoa and round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const encoded = base64Encode(bytes)
        expect(encoded).toBe(platformBase64(bytes))
        expect(base64Decode(encoded)).toEqual(bytes)
      }),
      { seed: base64Seed, numRuns: 300 },
    )
  })

  it.each(['abc', 'ab-_', 'a===', '====', 'ab\ncd'])('rejects %j', (text) => {
    expect(base64Decode(text)).toBeUndefined()
  })
})
