/**
 * Base64url encoding (RFC 4648 §5), on the standard encoder of `base64-decode.ts`.
 *
 * The decoders and the standard encoder their round-trip check uses are a file apart: `TokenSet`
 * (loaded before an app does anything) decodes ID token claims, while only code that signs or
 * hashes encodes base64url (ADR 0012).
 */
import { base64Encode } from './base64-decode.js'

export { base64Decode, base64Encode, base64UrlDecode } from './base64-decode.js'

/** Encodes bytes as unpadded base64url (RFC 4648 §5), as JWS uses. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** Encodes a string's UTF-8 bytes as unpadded base64url. */
export function base64UrlEncodeText(text: string): string {
  return base64UrlEncode(new TextEncoder().encode(text))
}
