import { describe, expect, it } from 'vitest'
import { bytesEqual } from '../../src/crypto/bytes.js'
import { CryptoError } from '../../src/errors/crypto-error.js'
import {
  concatBytes,
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
  readDerElement,
} from '../../src/x509/der.js'

function failure(operation: () => unknown): CryptoError {
  try {
    operation()
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return error as CryptoError
  }
  throw new Error('expected a CryptoError')
}

describe('readDerElement', () => {
  it('reads a short-form element and exposes header, content and the whole TLV', () => {
    const element = readDerElement(Uint8Array.of(0x04, 0x02, 0xaa, 0xbb, 0xff))
    expect(element.tag).toBe(0x04)
    expect(element.header).toBe(2)
    expect([...element.content]).toEqual([0xaa, 0xbb])
    expect([...element.bytes]).toEqual([0x04, 0x02, 0xaa, 0xbb])
  })

  it('reads long-form lengths of one and two octets', () => {
    const oneOctet = new Uint8Array([0x04, 0x81, 0x80, ...new Uint8Array(0x80)])
    expect(readDerElement(oneOctet).content.length).toBe(0x80)
    expect(readDerElement(oneOctet).header).toBe(3)
    const twoOctets = new Uint8Array([0x04, 0x82, 0x01, 0x00, ...new Uint8Array(0x100)])
    expect(readDerElement(twoOctets).content.length).toBe(0x100)
  })

  it('reads at an offset', () => {
    const element = readDerElement(Uint8Array.of(0x05, 0x00, 0x02, 0x01, 0x07), 2)
    expect(element.tag).toBe(0x02)
    expect([...element.content]).toEqual([0x07])
  })

  it.each([
    ['an empty input', []],
    ['a missing length', [0x30]],
    ['truncated content', [0x04, 0x03, 0x01, 0x02]],
    ['a truncated long length', [0x04, 0x82, 0x01]],
    ['an indefinite length', [0x30, 0x80, 0x00, 0x00]],
    ['a non-minimal long length (could be short)', [0x04, 0x81, 0x01, 0x00]],
    ['a long length with a leading zero octet', [0x04, 0x82, 0x00, 0x80, ...new Uint8Array(0x80)]],
    ['a five-octet length', [0x04, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00]],
    ['a multi-octet tag', [0x1f, 0x81, 0x01, 0x00]],
  ])('refuses %s with CryptoError invalid-certificate', (_title, bytes) => {
    expect(failure(() => readDerElement(Uint8Array.from(bytes))).reason).toBe('invalid-certificate')
  })

  it('reports the caller-given reason', () => {
    expect(failure(() => readDerElement(Uint8Array.of(0x30), 0, 'invalid-key')).reason).toBe(
      'invalid-key',
    )
  })

  it('refuses a value that is not a Uint8Array without a TypeError', () => {
    expect(failure(() => readDerElement('0x30' as unknown as Uint8Array)).message).toContain(
      'not a byte array',
    )
  })
})

describe('readDerDocument', () => {
  it('refuses trailing bytes after the outer element', () => {
    expect(readDerDocument(Uint8Array.of(0x05, 0x00)).tag).toBe(0x05)
    expect(
      failure(() => readDerDocument(Uint8Array.of(0x05, 0x00, 0x00), 'invalid-crl')).reason,
    ).toBe('invalid-crl')
  })
})

describe('readDerChildren', () => {
  it('returns the children of a SEQUENCE in order', () => {
    const sequence = readDerElement(Uint8Array.of(0x30, 0x06, 0x02, 0x01, 0x01, 0x04, 0x01, 0x02))
    expect(readDerChildren(sequence).map((child) => child.tag)).toEqual([0x02, 0x04])
  })

  it('returns no children for an empty SEQUENCE', () => {
    expect(readDerChildren(readDerElement(Uint8Array.of(0x30, 0x00)))).toEqual([])
  })

  it('refuses a primitive element', () => {
    expect(
      failure(() => readDerChildren(readDerElement(Uint8Array.of(0x04, 0x00)))).message,
    ).toContain('not constructed')
  })

  it('refuses a child that overruns its parent', () => {
    // The SEQUENCE holds 3 bytes, but the child claims 2 content bytes after a 2-byte header.
    const sequence = readDerElement(Uint8Array.of(0x30, 0x03, 0x04, 0x02, 0x01, 0x02))
    expect(failure(() => readDerChildren(sequence, 'invalid-key')).reason).toBe('invalid-key')
  })
})

describe('encodeDer', () => {
  it.each([0, 1, 127, 128, 255, 256, 65_535, 65_536])(
    'encodes %i content bytes with a minimal length that reads back',
    (length) => {
      const encoded = encodeDer(0x04, new Uint8Array(length).fill(7))
      const element = readDerDocument(encoded)
      expect(element.content.length).toBe(length)
      expect(element.header).toBe(length < 0x80 ? 2 : length < 0x100 ? 3 : length < 0x10000 ? 4 : 5)
    },
  )

  it('encodes a SEQUENCE of encoded children', () => {
    expect([
      ...encodeDerSequence(Uint8Array.of(0x05, 0x00), Uint8Array.of(0x02, 0x01, 0x00)),
    ]).toEqual([0x30, 0x05, 0x05, 0x00, 0x02, 0x01, 0x00])
  })
})

describe('byte helpers', () => {
  it('concatenates and compares', () => {
    const joined = concatBytes(Uint8Array.of(1), Uint8Array.of(), Uint8Array.of(2, 3))
    expect([...joined]).toEqual([1, 2, 3])
    expect(bytesEqual(joined, Uint8Array.of(1, 2, 3))).toBe(true)
    expect(bytesEqual(joined, Uint8Array.of(1, 2, 4))).toBe(false)
    expect(bytesEqual(joined, Uint8Array.of(1, 2))).toBe(false)
  })
})
