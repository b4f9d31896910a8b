/**
 * SHA-256 of bytes, synchronously, in plain JavaScript. WebCrypto's `digest` (which
 * `sha256Base64Url` uses) is asynchronous only; a JWK thumbprint is hashed here so that
 * `publicJwks` can answer synchronously, for example inside a JWKS route handler. Only ever
 * given public key material: speed and constant time do not matter here.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6234 RFC 6234 (SHA-256)
 * @internal
 */
export function sha256Sync(message: Uint8Array): Uint8Array {
  const hash = Uint32Array.of(
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  )
  // Padding: 0x80, zeros, then the bit length as a 64-bit big-endian number.
  const blocks = new Uint8Array(Math.ceil((message.length + 9) / 64) * 64)
  blocks.set(message)
  blocks[message.length] = 0x80
  const view = new DataView(blocks.buffer)
  const bitLength = message.length * 8
  view.setUint32(blocks.length - 8, Math.floor(bitLength / 0x100000000))
  view.setUint32(blocks.length - 4, bitLength >>> 0)
  const w = new Uint32Array(64)
  for (let offset = 0; offset < blocks.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4)
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15] as number
      const b = w[t - 2] as number
      const s0 = rotate(a, 7) ^ rotate(a, 18) ^ (a >>> 3)
      const s1 = rotate(b, 17) ^ rotate(b, 19) ^ (b >>> 10)
      w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ]
    for (let t = 0; t < 64; t++) {
      const t1 =
        (h +
          (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) +
          ((e & f) ^ (~e & g)) +
          (roundConstants[t] as number) +
          (w[t] as number)) >>>
        0
      const t2 =
        ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0
      h = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    const next = [a, b, c, d, e, f, g, h]
    for (let i = 0; i < 8; i++) hash[i] = ((hash[i] as number) + (next[i] as number)) >>> 0
  }
  const digest = new Uint8Array(32)
  const out = new DataView(digest.buffer)
  for (let i = 0; i < 8; i++) out.setUint32(i * 4, hash[i] as number)
  return digest
}

function rotate(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits))
}

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const roundConstants = /* @__PURE__ */ Uint32Array.of(
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
)
