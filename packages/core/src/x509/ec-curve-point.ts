/*
 * Whether an uncompressed EC point lies on its NIST curve (y² = x³ − 3x + b mod p), for
 * certificates only: OpenSSL refuses a certificate whose key is off its curve when it verifies
 * a path, and so does the path policy. Apart from the SPKI readers, so keys and ID token
 * verification never load these numbers.
 */

/** The prime `p` and constant `b` of each curve (FIPS 186-5 / SEC 2), by JOSE name. */
const curveParameters: Readonly<Record<string, readonly [p: bigint, b: bigint]>> =
  /* @__PURE__ */ Object.freeze({
    'P-256': [
      BigInt('0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff'),
      BigInt('0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b'),
    ],
    'P-384': [
      BigInt(
        '0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff',
      ),
      BigInt(
        '0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef',
      ),
    ],
    'P-521': [
      (BigInt(1) << BigInt(521)) - BigInt(1),
      BigInt(
        '0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00',
      ),
    ],
  })

function bigIntOf(bytes: Uint8Array): bigint {
  let hex = '0x0'
  for (const octet of bytes) hex += octet.toString(16).padStart(2, '0')
  return BigInt(hex)
}

/**
 * True when the coordinates `x`, `y` (big-endian, the curve's size each) are below `p` and
 * solve the curve equation; false for another curve name.
 *
 * @see https://www.secg.org/sec1-v2.pdf (§3.2.2.1, public key validation)
 */
export function isPointOnCurve(curveName: string, x: Uint8Array, y: Uint8Array): boolean {
  const parameters = curveParameters[curveName]
  if (parameters === undefined) return false
  const [p, b] = parameters
  const xValue = bigIntOf(x)
  const yValue = bigIntOf(y)
  if (xValue >= p || yValue >= p) return false
  const right = (((xValue * xValue * xValue - BigInt(3) * xValue + b) % p) + p) % p
  return (yValue * yValue) % p === right
}
