import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import type { GeneralName } from '../../src/x509/general-names.js'
import {
  constrainedNamesOf,
  type NameConstraints,
  nameConstraintViolation,
  readNameConstraints,
} from '../../src/x509/name-constraints.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'

const ascii = (text: string) => new TextEncoder().encode(text)
const uri = (value: string) => encodeDer(0x86, ascii(value))
const dns = (value: string) => encodeDer(0x82, ascii(value))
const email = (value: string) => encodeDer(0x81, ascii(value))
const subtree = (base: Uint8Array, ...bounds: Uint8Array[]) => encodeDerSequence(base, ...bounds)
const permitted = (...subtrees: Uint8Array[]) => encodeDer(0xa0, concatBytes(...subtrees))
const excluded = (...subtrees: Uint8Array[]) => encodeDer(0xa1, concatBytes(...subtrees))

const names = {
  uri: (value: string): GeneralName => ({ form: 'uri', value }),
  dns: (value: string): GeneralName => ({ form: 'dns', value }),
  email: (value: string): GeneralName => ({ form: 'email', value }),
}

function constraints(...fields: Uint8Array[]): NameConstraints {
  return readNameConstraints(encodeDerSequence(...fields))
}

describe('readNameConstraints', () => {
  it('reads permitted and excluded subtrees of every form', () => {
    const read = constraints(
      permitted(subtree(uri('.example.test')), subtree(dns('example.test'))),
      excluded(subtree(email('ops@example.test')), subtree(encodeDer(0x87, new Uint8Array(8)))),
    )
    expect(read.permitted.map((entry) => entry.base)).toEqual([
      names.uri('.example.test'),
      names.dns('example.test'),
    ])
    expect(read.excluded.map((entry) => entry.base.form)).toEqual(['email', 'ip'])
    expect(read.permitted.every((entry) => !entry.hasDistanceBounds)).toBe(true)
  })

  it('reads either list alone', () => {
    expect(constraints(excluded(subtree(dns('a.test')))).permitted).toEqual([])
    expect(constraints(permitted(subtree(dns('a.test')))).excluded).toEqual([])
  })

  it('marks subtrees with a minimum other than 0 or a maximum', () => {
    const read = constraints(
      permitted(
        subtree(dns('zero.test'), encodeDer(0x80, Uint8Array.of(0))),
        subtree(dns('one.test'), encodeDer(0x80, Uint8Array.of(1))),
        subtree(dns('max.test'), encodeDer(0x81, Uint8Array.of(2))),
        subtree(
          dns('both.test'),
          encodeDer(0x80, Uint8Array.of(0)),
          encodeDer(0x81, Uint8Array.of(0)),
        ),
      ),
    )
    expect(read.permitted.map((entry) => entry.hasDistanceBounds)).toEqual([
      false,
      true,
      true,
      true,
    ])
  })

  it.each([
    ['an empty permitted list', [permitted()], 'empty permittedSubtrees'],
    [
      'excluded before permitted',
      [excluded(subtree(dns('a'))), permitted(subtree(dns('b')))],
      'fields other than',
    ],
    ['an unknown field', [encodeDer(0xa2, new Uint8Array())], 'fields other than'],
    ['a subtree without a base', [permitted(encodeDerSequence())], 'has no base'],
    ['a 4-octet IP base', [permitted(subtree(encodeDer(0x87, new Uint8Array(4))))], '4 octets'],
    [
      'a bound out of order',
      [
        permitted(
          subtree(dns('a'), encodeDer(0x81, Uint8Array.of(1)), encodeDer(0x80, Uint8Array.of(0))),
        ),
      ],
      'repeats a bound',
    ],
    [
      'an unknown subtree field',
      [permitted(subtree(dns('a'), encodeDer(0x82, Uint8Array.of(1))))],
      'unexpected field',
    ],
    [
      'a negative bound',
      [permitted(subtree(dns('a'), encodeDer(0x80, Uint8Array.of(0xff))))],
      'negative',
    ],
    ['a subtree that is no SEQUENCE', [permitted(dns('a'))], 'tag 0x82'],
  ])('refuses %s', (_title, fields, fragment) => {
    expect(() => constraints(...fields)).toThrow(CryptoError)
    expect(() => constraints(...fields)).toThrow(fragment)
  })
})

describe('nameConstraintViolation', () => {
  const within = constraints(
    permitted(subtree(uri('.example.test')), subtree(dns('example.test'))),
    excluded(subtree(uri('bad.example.test')), subtree(email('example.test'))),
  )

  it('accepts names inside a permitted subtree of their form and outside every excluded one', () => {
    expect(
      nameConstraintViolation(within, [
        names.uri('https://client.example.test/app'),
        names.dns('www.example.test'),
        names.email('ops@other.test'),
        { form: 'ip', octets: Uint8Array.of(10, 0, 0, 1) },
      ]),
    ).toBeUndefined()
  })

  it('refuses a name outside the permitted subtrees of its form', () => {
    expect(nameConstraintViolation(within, [names.dns('other.test')])).toBe(
      'dNSName "other.test" is not within the permitted subtrees (dNSName "example.test")',
    )
  })

  it('refuses a name inside an excluded subtree, even when permitted', () => {
    expect(nameConstraintViolation(within, [names.uri('https://bad.example.test/')])).toBe(
      'uniformResourceIdentifier "https://bad.example.test/" is within the excluded subtree uniformResourceIdentifier "bad.example.test"',
    )
    expect(nameConstraintViolation(within, [names.email('ops@example.test')])).toContain(
      'excluded subtree rfc822Name "example.test"',
    )
  })

  it('refuses names it cannot place against constraints of their form', () => {
    expect(nameConstraintViolation(within, [names.uri('https://127.0.0.1/')])).toContain(
      'no DNS host name',
    )
    expect(nameConstraintViolation(within, [names.email('not-an-address')])).toContain('no "@"')
    const directory = constraints(
      permitted(
        subtree(
          encodeDer(
            0xa0,
            concatBytes(encodeDerOid('1.2.3'), encodeDer(0xa0, encodeDer(0x05, new Uint8Array()))),
          ),
        ),
      ),
    )
    expect(nameConstraintViolation(directory, [{ form: 'other', tag: 0xa0 }])).toContain(
      'checks URI, DNS, email, IP and directory names only',
    )
    // Without a constraint of its form, a name that cannot be placed does not matter.
    expect(nameConstraintViolation(directory, [names.uri('urn:x')])).toBeUndefined()
  })

  it('refuses any name of a form whose subtrees have distance bounds', () => {
    const bounded = constraints(
      permitted(subtree(dns('example.test'), encodeDer(0x81, Uint8Array.of(1)))),
    )
    expect(nameConstraintViolation(bounded, [names.dns('example.test')])).toContain(
      'minimum or maximum',
    )
    expect(nameConstraintViolation(bounded, [names.uri('https://x.test/')])).toBeUndefined()
  })

  it('checks IP addresses and directory names', () => {
    const ip = constraints(
      permitted(subtree(encodeDer(0x87, Uint8Array.of(10, 0, 0, 0, 255, 0, 0, 0)))),
    )
    expect(
      nameConstraintViolation(ip, [{ form: 'ip', octets: Uint8Array.of(10, 9, 9, 9) }]),
    ).toBeUndefined()
    expect(
      nameConstraintViolation(ip, [{ form: 'ip', octets: Uint8Array.of(11, 0, 0, 1) }]),
    ).toContain('iPAddress 0b000001 is not within the permitted subtrees')
    const rdn = encodeDer(
      0x31,
      encodeDerSequence(encodeDerOid('2.5.4.6'), encodeDer(0x13, ascii('US'))),
    )
    const us = encodeDerSequence(rdn)
    const directory = constraints(excluded(subtree(encodeDer(0xa4, us))))
    expect(nameConstraintViolation(directory, [{ form: 'directoryName', name: us }])).toBe(
      'directoryName "C=US" is within the excluded subtree directoryName "C=US"',
    )
  })
})

describe('constrainedNamesOf', () => {
  const attribute = (oid: string, value: Uint8Array) =>
    encodeDer(0x31, encodeDerSequence(encodeDerOid(oid), value))

  it('adds the subject and its emailAddress attributes before the SANs', () => {
    const subject = encodeDerSequence(
      attribute('2.5.4.3', encodeDer(0x0c, ascii('Leaf'))),
      attribute('1.2.840.113549.1.9.1', encodeDer(0x16, ascii('ops@example.test'))),
    )
    const san = names.dns('example.test')
    expect(constrainedNamesOf(subject, [san])).toEqual([
      { form: 'directoryName', name: subject },
      names.email('ops@example.test'),
      san,
    ])
  })

  it('reads an emailAddress that is no string as an address nobody can place', () => {
    const subject = encodeDerSequence(
      attribute('1.2.840.113549.1.9.1', encodeDer(0x02, Uint8Array.of(1))),
    )
    expect(constrainedNamesOf(subject, [])).toContainEqual(names.email(''))
  })

  it('leaves out an empty subject', () => {
    expect(constrainedNamesOf(encodeDerSequence(), [names.dns('a.test')])).toEqual([
      names.dns('a.test'),
    ])
  })
})
