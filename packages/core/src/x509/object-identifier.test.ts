import { describe, expect, it } from 'vitest'
import { CryptoError } from '../errors/crypto-error.js'
import { readDerDocument } from './der.js'
import { decodeDerOid, encodeDerOid } from './object-identifier.js'

describe('encodeDerOid and decodeDerOid', () => {
  it('encodes sha256WithRSAEncryption as the bytes X.509 uses', () => {
    expect([...encodeDerOid('1.2.840.113549.1.1.11')]).toEqual([
      0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b,
    ])
  })

  it.each([
    '1.2.840.10045.3.1.7',
    '1.3.132.0.34',
    '2.5.29.17',
    '0.9.2342.19200300.100.1.25',
    '2.999.1',
    '2.25.329800735698586629295641978511506172918',
    // Around the switch from numbers to bigints (2^46) and past exact doubles (2^53).
    '1.2.70368744177663',
    '1.2.70368744177664',
    '1.2.9007199254740993',
    '2.99999999999999999999',
    '2.39',
    '1.39',
    '0.0',
  ])('round-trips %s', (oid) => {
    expect(decodeDerOid(readDerDocument(encodeDerOid(oid)).content)).toBe(oid)
  })

  it.each(['', '1', '3.1', '1.40', 'a.b', '1..2', '1.2.'])('refuses %j', (oid) => {
    expect(() => encodeDerOid(oid)).toThrow(CryptoError)
  })

  it('refuses empty content, a redundant 0x80 and a truncated last arc', () => {
    for (const content of [[], [0x2a, 0x80, 0x01], [0x2a, 0x86]]) {
      let error: unknown
      try {
        decodeDerOid(Uint8Array.from(content), 'invalid-key')
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(CryptoError)
      expect((error as CryptoError).reason).toBe('invalid-key')
    }
  })
})
