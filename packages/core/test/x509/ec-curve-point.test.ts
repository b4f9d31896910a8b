import { describe, expect, it } from 'vitest'
import { isPointOnCurve } from '../../src/x509/ec-curve-point.js'
import { generateTestKeyPair, type TestCurve } from './fixtures/webcrypto-keys.js'

const sizes: Readonly<Record<TestCurve, number>> = { 'P-256': 32, 'P-384': 48, 'P-521': 66 }

/** The coordinates of a fresh key's uncompressed point (the last bytes of its SPKI). */
async function coordinates(curve: TestCurve): Promise<[Uint8Array, Uint8Array]> {
  const { spki } = await generateTestKeyPair('ES256', curve)
  const size = sizes[curve]
  const point = spki.subarray(spki.length - 2 * size)
  return [point.slice(0, size), point.slice(size)]
}

function bytesOf(value: bigint, size: number): Uint8Array {
  return Uint8Array.from(
    value
      .toString(16)
      .padStart(2 * size, '0')
      .match(/../g) as string[],
    (pair) => Number.parseInt(pair, 16),
  )
}

const integerOf = (bytes: Uint8Array) =>
  BigInt(`0x${Array.from(bytes, (octet) => octet.toString(16).padStart(2, '0')).join('')}`)
const p521 = (BigInt(1) << BigInt(521)) - BigInt(1)

describe('isPointOnCurve', () => {
  it('accepts the points of real keys and refuses them with y changed, on every curve', async () => {
    for (const curve of ['P-256', 'P-384', 'P-521'] as const) {
      const [x, y] = await coordinates(curve)
      expect(isPointOnCurve(curve, x, y), curve).toBe(true)
      const changed = y.slice()
      changed[changed.length - 1] = (changed[changed.length - 1] as number) ^ 0x01
      expect(isPointOnCurve(curve, x, changed), curve).toBe(false)
      expect(isPointOnCurve(curve, changed, y), curve).toBe(false)
    }
  })

  it('refuses another curve name', async () => {
    const [x, y] = await coordinates('P-256')
    expect(isPointOnCurve('P-192', x, y)).toBe(false)
  })

  it('refuses coordinates of p or more, which solve the equation only modulo p', async () => {
    // P-521 coordinates take 66 octets, so x + p and y + p still fit and are congruent to x, y.
    const [x, y] = await coordinates('P-521')
    const shifted = (bytes: Uint8Array) => bytesOf(integerOf(bytes) + p521, 66)
    expect(isPointOnCurve('P-521', shifted(x), y)).toBe(false)
    expect(isPointOnCurve('P-521', x, shifted(y))).toBe(false)
    // (p, √b) is (0, √b): on the curve modulo p, but x is not below p.
    const b = BigInt(
      '0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00',
    )
    let root = BigInt(1)
    let base = b
    for (let exponent = (p521 + BigInt(1)) / BigInt(4); exponent > 0; exponent >>= BigInt(1)) {
      if (exponent & BigInt(1)) root = (root * base) % p521
      base = (base * base) % p521
    }
    expect((root * root) % p521).toBe(b)
    expect(isPointOnCurve('P-521', bytesOf(BigInt(0), 66), bytesOf(root, 66))).toBe(true)
    expect(isPointOnCurve('P-521', bytesOf(p521, 66), bytesOf(root, 66))).toBe(false)
  })
})
