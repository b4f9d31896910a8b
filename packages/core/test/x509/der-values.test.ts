import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { encodeDer, readDerDocument } from '../../src/x509/der.js'
import {
  decodeBoolean,
  decodeDirectoryString,
  decodeSerialNumber,
  decodeTime,
} from '../../src/x509/der-certificate-values.js'
import { decodeUnsignedInteger, derTag } from '../../src/x509/der-values.js'

const ascii = (text: string) => new TextEncoder().encode(text)
const element = (tag: number, content: Uint8Array) => readDerDocument(encodeDer(tag, content))

describe('decodeTime', () => {
  it('reads UTCTime with the RFC 5280 century rule (50–99 → 19xx, 00–49 → 20xx)', () => {
    expect(
      decodeTime(
        element(derTag.utcTime, ascii('491231235959Z')),
        't',
        'invalid-certificate',
      ).toISOString(),
    ).toBe('2049-12-31T23:59:59.000Z')
    expect(
      decodeTime(
        element(derTag.utcTime, ascii('500101000000Z')),
        't',
        'invalid-certificate',
      ).toISOString(),
    ).toBe('1950-01-01T00:00:00.000Z')
  })

  it('reads GeneralizedTime, and refuses fractional seconds (RFC 5280 §4.1.2.5.2, §5.1.2.4)', () => {
    expect(
      decodeTime(
        element(derTag.generalizedTime, ascii('20500101000000Z')),
        't',
        'invalid-crl',
      ).toISOString(),
    ).toBe('2050-01-01T00:00:00.000Z')
    for (const text of ['20500101000000.5Z', '20500101000000.000Z', '20500101000000.Z']) {
      expect(() =>
        decodeTime(element(derTag.generalizedTime, ascii(text)), 'nextUpdate', 'invalid-crl'),
      ).toThrow(
        new CryptoError(
          'invalid-crl',
          `nextUpdate is not a valid UTC time: ${JSON.stringify(text)}`,
        ),
      )
    }
  })

  it.each([
    ['00500101000000Z', '0050-01-01T00:00:00.000Z'],
    ['00000101000000Z', '0000-01-01T00:00:00.000Z'],
    ['00991231235959Z', '0099-12-31T23:59:59.000Z'],
    // The year 0 is a leap year in the proleptic Gregorian calendar; 100 is not.
    ['00000229120000Z', '0000-02-29T12:00:00.000Z'],
  ])('reads the GeneralizedTime %s as itself, not as a year of the 1900s', (text, iso) => {
    expect(
      decodeTime(element(derTag.generalizedTime, ascii(text)), 't', 'invalid-crl').toISOString(),
    ).toBe(iso)
  })

  it.each([
    ['February 29th of the year 100', derTag.generalizedTime, '01000229000000Z'],
    ['minute 60', derTag.generalizedTime, '00500101006000Z'],
    ['month 13', derTag.generalizedTime, '00991301000000Z'],
    ['a local time', derTag.utcTime, '500101000000'],
    ['missing seconds', derTag.utcTime, '5001010000Z'],
    ['an offset', derTag.generalizedTime, '20500101000000+0100'],
    ['February 30th', derTag.generalizedTime, '20250230000000Z'],
    ['hour 24', derTag.utcTime, '250101240000Z'],
    ['another tag', derTag.utf8String, '20250101000000Z'],
  ])('refuses %s', (_title, tag, text) => {
    expect(() => decodeTime(element(tag, ascii(text)), 'notAfter', 'invalid-certificate')).toThrow(
      CryptoError,
    )
  })
})

describe('integers', () => {
  it('renders serial numbers as lowercase hex without leading zero octets', () => {
    expect(decodeSerialNumber(Uint8Array.of(0x00, 0x8f, 0x0a), 'invalid-certificate')).toBe('8f0a')
    expect(decodeSerialNumber(Uint8Array.of(0x00), 'invalid-certificate')).toBe('00')
    expect(decodeSerialNumber(Uint8Array.of(0x01, 0x00), 'invalid-certificate')).toBe('0100')
    expect(() => decodeSerialNumber(Uint8Array.of(), 'invalid-crl')).toThrow(CryptoError)
  })

  it('renders serial numbers by value: negative ones as OpenSSL does, never as a positive one', () => {
    const serial = (...octets: number[]) =>
      decodeSerialNumber(Uint8Array.from(octets), 'invalid-certificate')
    expect(serial(0x00, 0xff)).toBe('ff')
    expect(serial(0xff)).toBe('-01')
    expect(serial(0x80)).toBe('-80')
    expect(serial(0xff, 0x7f)).toBe('-81')
    expect(serial(0x80, 0x00)).toBe('-8000')
    expect(serial(0xfe, 0xff)).toBe('-0101')
    expect(serial(0x7f)).toBe('7f')
  })

  it.each([[[0x00, 0x00, 0xff]], [[0x00, 0x7f]], [[0x00, 0x00]], [[0xff, 0xff]], [[0xff, 0x80]]])(
    'refuses the non-minimal serial number %j (X.690 §8.3.2)',
    (octets) => {
      expect(() => decodeSerialNumber(Uint8Array.from(octets), 'invalid-crl')).toThrow(
        new CryptoError('invalid-crl', 'the serial number is not a minimally encoded INTEGER'),
      )
    },
  )

  it('strips the sign octet of unsigned integers and refuses non-minimal or negative ones', () => {
    expect([...decodeUnsignedInteger(Uint8Array.of(0x00, 0x80), 'n', 'invalid-key')]).toEqual([
      0x80,
    ])
    expect(() => decodeUnsignedInteger(Uint8Array.of(0x00, 0x7f), 'n', 'invalid-key')).toThrow(
      /minimally/,
    )
    expect(() => decodeUnsignedInteger(Uint8Array.of(0x80), 'n', 'invalid-key')).toThrow(/negative/)
    expect(() => decodeUnsignedInteger(Uint8Array.of(), 'n', 'invalid-key')).toThrow(/empty/)
  })
})

describe('decodeBoolean', () => {
  it('reads one octet and refuses other lengths', () => {
    expect(decodeBoolean(Uint8Array.of(0xff), 'b', 'invalid-certificate')).toBe(true)
    expect(decodeBoolean(Uint8Array.of(0x00), 'b', 'invalid-certificate')).toBe(false)
    expect(() => decodeBoolean(Uint8Array.of(0xff, 0xff), 'b', 'invalid-certificate')).toThrow(
      CryptoError,
    )
  })
})

describe('decodeDirectoryString', () => {
  it('reads UTF-8, printable, BMP and universal strings', () => {
    expect(
      decodeDirectoryString(element(derTag.utf8String, ascii('Zoë')), 's', 'invalid-certificate'),
    ).toBe('Zoë')
    expect(
      decodeDirectoryString(
        element(derTag.printableString, ascii('US')),
        's',
        'invalid-certificate',
      ),
    ).toBe('US')
    expect(
      decodeDirectoryString(
        element(derTag.bmpString, Uint8Array.of(0x00, 0x41, 0x00, 0xe9)),
        's',
        'invalid-certificate',
      ),
    ).toBe('Aé')
    expect(
      decodeDirectoryString(
        element(derTag.universalString, Uint8Array.of(0, 1, 0xf6, 0x00)),
        's',
        'invalid-certificate',
      ),
    ).toBe('\u{1f600}')
  })

  it('returns undefined for non-string tags and refuses malformed strings', () => {
    expect(
      decodeDirectoryString(element(derTag.octetString, ascii('x')), 's', 'invalid-certificate'),
    ).toBeUndefined()
    expect(() =>
      decodeDirectoryString(
        element(derTag.utf8String, Uint8Array.of(0xc3)),
        's',
        'invalid-certificate',
      ),
    ).toThrow(/UTF-8/)
    expect(() =>
      decodeDirectoryString(
        element(derTag.bmpString, Uint8Array.of(0x00)),
        's',
        'invalid-certificate',
      ),
    ).toThrow(/truncated/)
  })
})
