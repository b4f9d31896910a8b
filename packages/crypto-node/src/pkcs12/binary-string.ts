/**
 * node-forge works on "binary strings" (one character per byte); these convert at the boundary.
 *
 * @internal
 */
export function bytesToBinaryString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
}

/**
 * The bytes of a forge binary string, as a fresh `Uint8Array`.
 *
 * @internal
 */
export function binaryStringToBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'))
}
