import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { concatBytes, encodeDer, encodeDerSequence, readDerDocument } from '../../src/x509/der.js'
import { readGeneralName, readSubjectAltNames } from '../../src/x509/general-names.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'

const ascii = (text: string) => new TextEncoder().encode(text)
const element = (bytes: Uint8Array) => readDerDocument(bytes)

describe('readGeneralName', () => {
  it('refuses otherName, ediPartyName, registeredID and directoryName contents that do not parse (RFC 5280 §4.2.1.6)', () => {
    const utf8 = (value: string) => encodeDer(0x0c, ascii(value))
    const oid = encodeDerOid('1.2.3')
    for (const [tag, content, message] of [
      [0xa0, new Uint8Array(), 'the otherName type of x is missing'],
      [0xa0, oid, 'the otherName value of x is missing'],
      [
        0xa0,
        concatBytes(oid, encodeDer(0x80, ascii('v'))),
        'the otherName value of x has tag 0x80',
      ],
      [0xa0, concatBytes(oid, encodeDer(0xa0, new Uint8Array())), 'is not a type and one value'],
      [
        0xa0,
        concatBytes(oid, encodeDer(0xa0, concatBytes(utf8('v'), utf8('w')))),
        'is not a type and one value',
      ],
      [
        0xa0,
        concatBytes(oid, encodeDer(0xa0, utf8('v')), utf8('w')),
        'is not a type and one value',
      ],
      [
        0xa0,
        concatBytes(encodeDer(0x06, Uint8Array.of(0x80)), encodeDer(0xa0, utf8('v'))),
        'malformed object identifier',
      ],
      [0xa5, new Uint8Array(), 'is not [0] nameAssigner, [1] partyName'],
      [0xa5, encodeDer(0xa0, utf8('assigner')), 'is not [0] nameAssigner, [1] partyName'],
      [
        0xa5,
        concatBytes(encodeDer(0xa1, utf8('p')), encodeDer(0xa0, utf8('a'))),
        'is not [0] nameAssigner',
      ],
      [
        0xa5,
        encodeDer(0xa1, encodeDer(0x16, ascii('p'))),
        'holds a value that is no DirectoryString',
      ],
      [0xa5, encodeDer(0xa1, new Uint8Array()), 'holds a value that is no DirectoryString'],
      [
        0xa5,
        encodeDer(0xa1, concatBytes(utf8('p'), utf8('q'))),
        'holds a value that is no DirectoryString',
      ],
      [
        0xa5,
        encodeDer(0xa1, encodeDer(0x1e, Uint8Array.of(0xdc, 0))),
        'the ediPartyName of x has an invalid character',
      ],
      [
        0xa5,
        concatBytes(encodeDer(0xa0, utf8('a')), encodeDer(0xa0, utf8('b'))),
        'is not [0] nameAssigner, [1] partyName',
      ],
      [0xa4, encodeDer(0x31, new Uint8Array()), 'the directoryName of x has tag 0x31'],
      [0x88, new Uint8Array(), 'malformed object identifier'],
      [0x88, Uint8Array.of(0x2a, 0x80), 'malformed object identifier'],
      [0xa4, encodeDerSequence(encodeDer(0x30, new Uint8Array())), 'has tag 0x30, expected 0x31'],
      [
        0xa4,
        encodeDerSequence(
          encodeDer(0x31, encodeDerSequence(oid, encodeDer(0x02, Uint8Array.of(1)))),
        ),
        'which is no string type',
      ],
    ] as const) {
      let caught: unknown
      try {
        readGeneralName(element(encodeDer(tag, content)), 'x')
      } catch (error) {
        caught = error
      }
      expect(caught, `tag 0x${tag.toString(16)}: ${message}`).toBeInstanceOf(CryptoError)
      expect((caught as CryptoError).message).toContain(message)
    }
    const assigned = concatBytes(encodeDer(0xa0, utf8('a')), encodeDer(0xa1, utf8('p')))
    expect(readGeneralName(element(encodeDer(0xa5, assigned)), 'x')).toEqual({
      form: 'other',
      tag: 0xa5,
    })
  })

  it('reads each form', () => {
    expect(readGeneralName(element(encodeDer(0x81, ascii('ops@example.test'))), 'x')).toEqual({
      form: 'email',
      value: 'ops@example.test',
    })
    expect(readGeneralName(element(encodeDer(0x82, ascii('example.test'))), 'x')).toEqual({
      form: 'dns',
      value: 'example.test',
    })
    expect(readGeneralName(element(encodeDer(0x86, ascii('https://a.test/'))), 'x')).toEqual({
      form: 'uri',
      value: 'https://a.test/',
    })
    expect(readGeneralName(element(encodeDer(0x87, Uint8Array.of(127, 0, 0, 1))), 'x')).toEqual({
      form: 'ip',
      octets: Uint8Array.of(127, 0, 0, 1),
    })
    const name = encodeDerSequence()
    expect(readGeneralName(element(encodeDer(0xa4, name)), 'x')).toEqual({
      form: 'directoryName',
      name,
    })
    const partyName = encodeDer(0xa1, encodeDer(0x0c, ascii('party')))
    for (const [tag, content] of [
      [0xa0, concatBytes(encodeDerOid('1.2.3'), encodeDer(0xa0, encodeDer(0x0c, ascii('v'))))],
      [0xa3, new Uint8Array()],
      [0xa5, partyName],
    ] as const) {
      expect(readGeneralName(element(encodeDer(tag, content)), 'x')).toEqual({
        form: 'other',
        tag,
      })
    }
    expect(
      readGeneralName(element(encodeDer(0x88, encodeDerOid('1.2.3').subarray(2))), 'x'),
    ).toEqual({
      form: 'other',
      tag: 0x88,
    })
  })

  it.each([
    ['an unknown tag', encodeDer(0x89, new Uint8Array()), 'no GeneralName'],
    ['a control character', encodeDer(0x82, Uint8Array.of(0x61, 0x0a)), 'control characters'],
    ['a non-ASCII octet', encodeDer(0x81, Uint8Array.of(0x61, 0xe9)), 'non-ASCII'],
    [
      'two names in a directoryName',
      encodeDer(0xa4, concatBytes(encodeDerSequence(), encodeDerSequence())),
      'two names',
    ],
    [
      'a directoryName that is no SEQUENCE',
      encodeDer(0xa4, encodeDer(0x31, new Uint8Array())),
      'tag 0x31',
    ],
  ])('refuses %s', (_title, bytes, fragment) => {
    expect(() => readGeneralName(element(bytes), 'a test name')).toThrow(CryptoError)
    expect(() => readGeneralName(element(bytes), 'a test name')).toThrow(fragment)
  })

  it('reports the reason it is given', () => {
    expect(() =>
      readGeneralName(element(encodeDer(0x89, new Uint8Array())), 'x', 'invalid-crl'),
    ).toThrow(expect.objectContaining({ name: 'CryptoError', reason: 'invalid-crl' }))
  })
})

describe('readSubjectAltNames', () => {
  it('reads every entry in order', () => {
    const names = readSubjectAltNames(
      encodeDerSequence(
        encodeDer(0x86, ascii('https://a.test/')),
        encodeDer(0x82, ascii('a.test')),
        encodeDer(0x87, new Uint8Array(16)),
      ),
    )
    expect(names.map((name) => name.form)).toEqual(['uri', 'dns', 'ip'])
  })

  it.each([
    ['an empty list', encodeDerSequence(), 'empty list'],
    ['a 5-octet IP address', encodeDerSequence(encodeDer(0x87, new Uint8Array(5))), '5 octets'],
    [
      'an IP address with a mask',
      encodeDerSequence(encodeDer(0x87, new Uint8Array(8))),
      '8 octets',
    ],
    ['a SET', encodeDer(0x31, new Uint8Array()), 'tag 0x31'],
  ])('refuses %s', (_title, value, fragment) => {
    expect(() => readSubjectAltNames(value)).toThrow(fragment)
  })
})
