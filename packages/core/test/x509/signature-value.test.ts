import { describe, expect, it } from 'vitest'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { signatureForIssuerKey, signatureToJose } from '../../src/x509/signature-value.js'
import type { PublicKeyDescription } from '../../src/x509/spki.js'

const integer = (...bytes: number[]) => encodeDer(0x02, Uint8Array.from(bytes))
const ecKey = (namedCurve: string): PublicKeyDescription => ({
  type: 'EC',
  namedCurve,
  jwk: { kty: 'EC' },
})

describe('signatureToJose', () => {
  it('leaves RSA signatures and unknown algorithms unchanged', () => {
    const bits = Uint8Array.of(1, 2, 3)
    expect(signatureToJose('RS256', bits)).toBe(bits)
    expect(signatureToJose(undefined, bits)).toBe(bits)
  })

  it('converts DER to r‖s padded to the algorithm length, stripping sign octets', () => {
    const der = encodeDerSequence(integer(0x00, 0x80, 0x01), integer(0x05))
    const jose = signatureToJose('ES256', der)
    expect(jose).toHaveLength(64)
    expect([...jose.subarray(30, 32)]).toEqual([0x80, 0x01])
    expect(jose[63]).toBe(0x05)
  })

  it('widens the integers when the issuer curve is larger than the hash suggests', () => {
    const r = new Array(48).fill(0x11)
    expect(signatureToJose('ES256', encodeDerSequence(integer(...r), integer(0x01)))).toHaveLength(
      96,
    )
  })

  it.each([
    ['not DER', Uint8Array.of(1, 2, 3)],
    ['three integers', encodeDerSequence(integer(1), integer(2), integer(3))],
    ['a negative integer', encodeDerSequence(integer(0x80), integer(1))],
    [
      'an integer longer than P-521',
      encodeDerSequence(integer(...new Array(67).fill(1)), integer(1)),
    ],
  ])(
    'turns a malformed ECDSA value (%s) into an empty signature that never verifies',
    (_title, der) => {
      expect(signatureToJose('ES384', der)).toHaveLength(0)
    },
  )
})

describe('signatureForIssuerKey', () => {
  it('re-pads r‖s to the issuer curve size', () => {
    const wide = new Uint8Array(96)
    wide[47] = 0x01
    wide[95] = 0x02
    const narrowed = signatureForIssuerKey(wide, ecKey('P-256'))
    expect(narrowed).toHaveLength(64)
    expect([narrowed[31], narrowed[63]]).toEqual([0x01, 0x02])
  })

  it('keeps signatures that already fit, cannot fit, or belong to RSA keys', () => {
    const exact = new Uint8Array(64)
    expect(signatureForIssuerKey(exact, ecKey('P-256'))).toBe(exact)
    const tooWide = new Uint8Array(96).fill(0xff)
    expect(signatureForIssuerKey(tooWide, ecKey('P-256'))).toBe(tooWide)
    const rsa = new Uint8Array(256)
    expect(signatureForIssuerKey(rsa, { type: 'RSA', jwk: { kty: 'RSA' } })).toBe(rsa)
  })
})
