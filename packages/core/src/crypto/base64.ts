/**
 * Base64 and base64url without `Buffer`, `atob` or `btoa`, so the same code runs in browsers,
 * edge runtimes and Node, and decoding is strict (no silent skipping of bad characters).
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const urlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function buildLookup(chars: string): Int16Array {
  const table = new Int16Array(128).fill(-1)
  for (let index = 0; index < chars.length; index++) table[chars.charCodeAt(index)] = index
  return table
}

const lookup = /* @__PURE__ */ buildLookup(alphabet)
const urlLookup = /* @__PURE__ */ buildLookup(urlAlphabet)

function encode(bytes: Uint8Array, chars: string, pad: boolean): string {
  let output = ''
  let index = 0
  for (; index + 2 < bytes.length; index += 3) {
    const triple =
      ((bytes[index] as number) << 16) |
      ((bytes[index + 1] as number) << 8) |
      (bytes[index + 2] as number)
    output +=
      chars.charAt(triple >> 18) +
      chars.charAt((triple >> 12) & 63) +
      chars.charAt((triple >> 6) & 63) +
      chars.charAt(triple & 63)
  }
  const rest = bytes.length - index
  if (rest === 1) {
    const value = (bytes[index] as number) << 16
    output += chars.charAt(value >> 18) + chars.charAt((value >> 12) & 63) + (pad ? '==' : '')
  } else if (rest === 2) {
    const value = ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8)
    output +=
      chars.charAt(value >> 18) +
      chars.charAt((value >> 12) & 63) +
      chars.charAt((value >> 6) & 63) +
      (pad ? '=' : '')
  }
  return output
}

function decode(text: string, table: Int16Array): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined
  const output = new Uint8Array(Math.floor((text.length * 3) / 4))
  let buffer = 0
  let bits = 0
  let written = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    const value = code < 128 ? (table[code] as number) : -1
    if (value < 0) return undefined
    buffer = (buffer << 6) | value
    bits += 6
    if (bits >= 8) {
      bits -= 8
      output[written++] = (buffer >> bits) & 0xff
    }
  }
  // Leftover bits must be zero, or two different strings would decode to the same bytes.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined
  return output.subarray(0, written)
}

/** Encodes bytes as unpadded base64url (RFC 4648 §5), as JWS uses. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return encode(bytes, urlAlphabet, false)
}

/** Encodes a string's UTF-8 bytes as unpadded base64url. */
export function base64UrlEncodeText(text: string): string {
  return base64UrlEncode(new TextEncoder().encode(text))
}

/** Decodes unpadded base64url; `undefined` for anything else (padding, `+`, `/`, spaces). */
export function base64UrlDecode(text: string): Uint8Array | undefined {
  return decode(text, urlLookup)
}

/** Encodes bytes as padded standard base64 (RFC 4648 §4), as the JWS `x5c` header uses. */
export function base64Encode(bytes: Uint8Array): string {
  return encode(bytes, alphabet, true)
}

/**
 * Decodes padded standard base64 (as in `x5c` and PEM bodies without line breaks);
 * `undefined` for malformed input.
 */
export function base64Decode(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  return decode(text.slice(0, text.length - padding), lookup)
}
