import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { readDerDocument } from '../../src/x509/der.js'
import { decodeDerOid, encodeDerOid } from '../../src/x509/object-identifier.js'

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

  it.each(['', '1', '3.1', '1.40', 'a.b', '1..2', '1.2.', 'x1.2', '1.2 '])('refuses %j', (oid) => {
    expect(() => encodeDerOid(oid)).toThrow(
      new CryptoError('invalid-key', `${JSON.stringify(oid)} is not an object identifier`),
    )
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

  it.each([
    [[], 'it is empty'],
    [[0x80, 0x01], 'a sub-identifier is not minimally encoded'],
    [[0x2a, 0x80, 0x01], 'a sub-identifier is not minimally encoded'],
    [[0x2a, 0x86], 'the last sub-identifier is truncated'],
    [[0x2a, 0x01, 0x86, 0x86], 'the last sub-identifier is truncated'],
  ])('names the problem of %j, with the default reason', (content, problem) => {
    expect(() => decodeDerOid(Uint8Array.from(content))).toThrow(
      new CryptoError('invalid-certificate', `malformed object identifier: ${problem}`),
    )
  })

  /** One sub-identifier of `length` octets, each carrying the 7 bits 0000001. */
  const ones = (length: number) =>
    Uint8Array.from({ length }, (_, index) => (index === length - 1 ? 0x01 : 0x81))

  it('reads sub-identifiers up to 20 octets (140 bits), the first one and later ones', () => {
    const value = (length: number) => (128n ** BigInt(length) - 1n) / 127n
    expect(decodeDerOid(ones(20))).toBe(`2.${value(20) - 80n}`)
    expect(decodeDerOid(Uint8Array.of(0x2a, ...ones(20)))).toBe(`1.2.${value(20)}`)
    // Seven octets (49 bits) and eight, around the switch from numbers to bigints.
    expect(decodeDerOid(Uint8Array.of(0x2a, ...ones(7), ...ones(8)))).toBe(
      `1.2.${value(7)}.${value(8)}`,
    )
    expect(decodeDerOid(Uint8Array.of(0x2a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f))).toBe(
      `1.2.${2 ** 49 - 1}`,
    )
  })

  it('refuses a sub-identifier longer than 20 octets, wherever it is', () => {
    for (const content of [ones(21), Uint8Array.of(0x2a, ...ones(21)), ones(4096)]) {
      expect(() => decodeDerOid(content, 'invalid-crl')).toThrow(
        new CryptoError(
          'invalid-crl',
          'malformed object identifier: a sub-identifier is longer than 20 octets',
        ),
      )
    }
  })
})
