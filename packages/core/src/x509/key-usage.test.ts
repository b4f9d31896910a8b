import { describe, expect, it } from 'vitest'
import { CryptoError } from '../errors/crypto-error.js'
import { encodeDer } from './der.js'
import { describeKeyUsage, keyUsageAllows, readKeyUsage } from './key-usage.js'

/** A keyUsage extension value: BIT STRING with the given unused-bits octet and content. */
const bitString = (...octets: number[]) => encodeDer(0x03, Uint8Array.from(octets))

describe('readKeyUsage', () => {
  it('reads the named bits in order, bit 0 first', () => {
    // 0x86 = 1000 0110: digitalSignature (0), keyCertSign (5), cRLSign (6); one unused bit.
    const usage = readKeyUsage(bitString(1, 0x86))
    expect(describeKeyUsage(usage)).toBe('digitalSignature, keyCertSign, cRLSign')
    expect(keyUsageAllows(usage, 'digitalSignature')).toBe(true)
    expect(keyUsageAllows(usage, 'keyCertSign')).toBe(true)
    expect(keyUsageAllows(usage, 'cRLSign')).toBe(true)
  })

  it('reads decipherOnly from a second octet and ignores bits beyond it', () => {
    const usage = readKeyUsage(bitString(0, 0x00, 0xff))
    expect(describeKeyUsage(usage)).toBe('decipherOnly')
    expect(usage.bits).toHaveLength(9)
  })

  it('tolerates trailing zero bits a CA wrote as whole octets', () => {
    const usage = readKeyUsage(bitString(0, 0x04, 0x00))
    expect(describeKeyUsage(usage)).toBe('keyCertSign')
  })

  it('does not read bits the unused-bits count marks as padding', () => {
    // 0x03 with 2 unused bits: bits 6 and 7 are padding, so cRLSign (6) is not set.
    const usage = readKeyUsage(bitString(2, 0x03))
    expect(keyUsageAllows(usage, 'cRLSign')).toBe(false)
    expect(describeKeyUsage(usage)).toBe('none')
  })

  it('reads an empty BIT STRING as no bits', () => {
    const usage = readKeyUsage(bitString(0))
    expect(describeKeyUsage(usage)).toBe('none')
    expect(keyUsageAllows(usage, 'digitalSignature')).toBe(false)
  })

  it('allows everything when the extension is absent', () => {
    expect(keyUsageAllows(undefined, 'keyCertSign')).toBe(true)
  })

  it.each([
    ['no content', encodeDer(0x03, new Uint8Array()), 'empty BIT STRING'],
    ['8 unused bits', bitString(8, 0x80), '8 unused bits'],
    ['unused bits in an empty string', bitString(3), '3 unused bits'],
    ['an OCTET STRING', encodeDer(0x04, Uint8Array.of(0, 0x80)), 'tag 0x04'],
    ['trailing bytes', Uint8Array.of(...bitString(0, 0x80), 0), 'bytes follow'],
  ])('refuses %s with invalid-certificate', (_title, value, fragment) => {
    expect(() => readKeyUsage(value)).toThrow(CryptoError)
    expect(() => readKeyUsage(value)).toThrow(fragment)
  })
})
