/**
 * WebCrypto takes `BufferSource`, which (since TypeScript 5.7) excludes views of a
 * `SharedArrayBuffer`. Callers give us plain `Uint8Array`s; this keeps the view when it already
 * sits on an `ArrayBuffer` and copies otherwise, so no cast hides a real mismatch.
 */
export function bufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer) return bytes as Uint8Array<ArrayBuffer>
  return new Uint8Array(bytes)
}
