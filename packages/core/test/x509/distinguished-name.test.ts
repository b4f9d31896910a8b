import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { encodeDer, encodeDerSequence, readDerDocument } from '../../src/x509/der.js'
import { renderDistinguishedName } from '../../src/x509/distinguished-name.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'

const text = (value: string, tag = 0x0c) => encodeDer(tag, new TextEncoder().encode(value))
const attribute = (oid: string, value: Uint8Array) => encodeDerSequence(encodeDerOid(oid), value)
const relativeName = (...attributes: Uint8Array[]) =>
  encodeDer(0x31, new Uint8Array(attributes.flatMap((item) => [...item])))
const render = (...relativeNames: Uint8Array[]) =>
  renderDistinguishedName(
    readDerDocument(encodeDerSequence(...relativeNames)),
    'invalid-certificate',
  )

describe('renderDistinguishedName', () => {
  it('writes the last RDN first with RFC 4514 short names', () => {
    expect(
      render(
        relativeName(attribute('2.5.4.6', text('US', 0x13))),
        relativeName(attribute('2.5.4.10', text('Example'))),
        relativeName(attribute('2.5.4.3', text('Leaf'))),
      ),
    ).toBe('CN=Leaf,O=Example,C=US')
  })

  it('joins multi-valued RDNs with + and writes unknown types as dotted OIDs', () => {
    expect(
      render(
        relativeName(
          attribute('2.5.4.3', text('a')),
          attribute('1.2.840.113549.1.9.1', text('x@example.test', 0x16)),
        ),
      ),
    ).toBe('CN=a+1.2.840.113549.1.9.1=x@example.test')
  })

  it('escapes special characters, leading # or space and trailing space', () => {
    expect(render(relativeName(attribute('2.5.4.3', text('#a, b+"c"\\<d>;e=f '))))).toBe(
      'CN=\\#a\\, b\\+\\"c\\"\\\\\\<d\\>\\;e\\=f\\ ',
    )
    expect(render(relativeName(attribute('2.5.4.3', text(' x\n'))))).toBe('CN=\\ x\\0a')
  })

  it('writes non-string values as #hex of their DER', () => {
    expect(
      render(relativeName(attribute('2.5.4.45', encodeDer(0x03, Uint8Array.of(0, 0xab))))),
    ).toBe('2.5.4.45=#030200ab')
  })

  it('renders an empty name as an empty string', () => {
    expect(render()).toBe('')
  })

  it('refuses an attribute without a value and an RDN that is not a SET', () => {
    expect(() => render(relativeName(encodeDerSequence(encodeDerOid('2.5.4.3'))))).toThrow(
      CryptoError,
    )
    expect(() => render(encodeDerSequence(attribute('2.5.4.3', text('a'))))).toThrow(
      /relative distinguished name/,
    )
  })
})
