import { base64UrlEncode } from './base64.js'

/**
 * base64url(SHA-256(UTF-8 text)), with WebCrypto: the PKCE S256 challenge, and store keys
 * derived from values that should not appear as key names (a launch's `state`, a cache
 * identity).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2 RFC 7636 §4.2
 * @internal
 */
export async function sha256Base64Url(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return base64UrlEncode(new Uint8Array(digest))
}
