import fc from 'fast-check'

/** One change to a DER (or any binary) document. */
type ByteMutation =
  | { readonly kind: 'flip'; readonly at: number; readonly mask: number }
  | { readonly kind: 'set'; readonly at: number; readonly value: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'extend'; readonly bytes: Uint8Array }
  | { readonly kind: 'insert'; readonly at: number; readonly bytes: Uint8Array }
  | { readonly kind: 'delete'; readonly at: number; readonly count: number }
  | { readonly kind: 'long-length'; readonly at: number; readonly lengthBytes: Uint8Array }

/**
 * Bytes that DER parsers trip over when they appear where a length or tag is read: long-form
 * lengths of 4 and 8 bytes, the indefinite length (forbidden in DER), a length beyond the input.
 */
const lengthEncodings: readonly Uint8Array[] = [
  Uint8Array.of(0x80),
  Uint8Array.of(0x84, 0xff, 0xff, 0xff, 0xff),
  Uint8Array.of(0x88, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
  Uint8Array.of(0x82, 0xff, 0xff),
  Uint8Array.of(0x81, 0x01),
]

const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fc.nat(),
      mask: fc.integer({ min: 1, max: 255 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      at: fc.nat(),
      value: fc.constantFrom(0x00, 0x30, 0x80, 0x81, 0x82, 0xff),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('extend' as const),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      at: fc.nat(),
      count: fc.integer({ min: 1, max: 16 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('long-length' as const),
      at: fc.nat(),
      lengthBytes: fc.constantFrom(...lengthEncodings),
    }),
  },
)

function applyByteMutation(bytes: Uint8Array, mutation: ByteMutation): Uint8Array {
  if (mutation.kind === 'extend') return concat(bytes, mutation.bytes)
  if (bytes.length === 0) return mutation.kind === 'insert' ? mutation.bytes : bytes
  // Most structure sits in the first bytes (outer tags and lengths); bias positions there half the time.
  const at =
    mutation.at % 2 === 0
      ? (mutation.at >> 1) % Math.min(bytes.length, 64)
      : mutation.at % bytes.length
  switch (mutation.kind) {
    case 'flip': {
      const copy = bytes.slice()
      copy[at] = (copy[at] ?? 0) ^ mutation.mask
      return copy
    }
    case 'set': {
      const copy = bytes.slice()
      copy[at] = mutation.value
      return copy
    }
    case 'truncate':
      return bytes.slice(0, at)
    case 'insert':
      return concat(bytes.slice(0, at), mutation.bytes, bytes.slice(at))
    case 'delete':
      return concat(bytes.slice(0, at), bytes.slice(at + mutation.count))
    case 'long-length':
      // Replaces the length octet after a tag (at + 1) with a hostile length encoding.
      return concat(bytes.slice(0, at + 1), mutation.lengthBytes, bytes.slice(at + 2))
  }
}

function concat(...parts: readonly Uint8Array[]): Uint8Array {
  const result = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    result.set(part, offset)
    offset += part.length
  }
  return result
}

/**
 * A valid binary document (DER certificate, CRL, key, PKCS#12 file) damaged by one to three
 * mutations — bit flips, bytes set to tag and length values, truncation, extension, insertion,
 * deletion, hostile long-form lengths — or replaced by random bytes, or by nothing.
 */
export function mutatedBytes(valid: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .array(byteMutation, { minLength: 1, maxLength: 3 })
        .map((mutations) => mutations.reduce(applyByteMutation, valid)),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
    { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  )
}

/** Values of the wrong type where bytes or text are expected, as JavaScript callers pass them. */
export const wrongTypeInputs: readonly unknown[] = [
  undefined,
  null,
  0,
  Number.NaN,
  true,
  {},
  [],
  [1, 2, 3],
  new ArrayBuffer(8),
  new DataView(new ArrayBuffer(8)),
  new Uint16Array([0x3082, 0x0101]),
  Symbol('certificate'),
  () => 'certificate',
  new Date(0),
  { der: new Uint8Array([0x30, 0x00]) },
  Object.create(null),
]
