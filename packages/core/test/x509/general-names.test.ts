import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { concatBytes, encodeDer, encodeDerSequence, readDerDocument } from '../../src/x509/der.js'
import { readGeneralName, readSubjectAltNames } from '../../src/x509/general-names.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'

const ascii = (text: string) => new TextEncoder().encode(text)
const element = (bytes: Uint8Array) => readDerDocument(bytes)

describe('readGeneralName', () => {
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
    for (const tag of [0xa0, 0xa3, 0xa5]) {
      expect(readGeneralName(element(encodeDer(tag, new Uint8Array())), 'x')).toEqual({
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
