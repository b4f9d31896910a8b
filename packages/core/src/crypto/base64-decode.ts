/**
 * Base64 and base64url on the platform's `btoa`/`atob` (browsers, edge runtimes, Deno, Bun and
 * Node all have them), without `Buffer`. Decoding is strict: only the canonical encoding of some
 * bytes is accepted (no padding in base64url, no whitespace, no non-zero leftover bits), so two
 * different strings never decode to the same bytes.
 */

function binaryString(bytes: Uint8Array): string {
  let binary = ''
  // Chunked: String.fromCharCode(...bytes) on a large array would overflow the call stack.
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  }
  return binary
}

/** Encodes bytes as padded standard base64 (RFC 4648 §4), as the JWS `x5c` header uses. */
export function base64Encode(bytes: Uint8Array): string {
  return btoa(binaryString(bytes))
}

/**
 * Decodes padded standard base64 (as in `x5c` and PEM bodies without line breaks);
 * `undefined` for malformed or non-canonical input.
 */
export function base64Decode(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  let binary: string
  try {
    binary = atob(text)
  } catch {
    return undefined
  }
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0))
  return base64Encode(bytes) === text ? bytes : undefined
}

/** Decodes unpadded base64url; `undefined` for anything else (padding, `+`, `/`, spaces). */
export function base64UrlDecode(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined
  const padded =
    text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4)
  return base64Decode(padded)
}
