import { base64Encode } from '../crypto/base64.js'
import type { BasicAuthEncoding } from './basic-auth-encodings.js'

// A file apart: configuration checks (loaded before an app does anything) need the names only,
// not this file's encoders (ADR 0012).
export { type BasicAuthEncoding, basicAuthEncodings } from './basic-auth-encodings.js'

/**
 * `application/x-www-form-urlencoded` serialisation (WHATWG URL standard), skipping
 * `undefined` members so optional parameters can be written inline.
 */
export function encodeForm(parameters: Readonly<Record<string, string | undefined>>): string {
  const form = new URLSearchParams()
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) form.append(name, value)
  }
  return form.toString()
}

/**
 * Percent-encodes like `application/x-www-form-urlencoded` (space as `+`), as RFC 6749 §2.3.1
 * requires for the client id and secret before HTTP Basic encoding.
 */
export function formUrlEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2)
}

/**
 * The `Authorization` header value for HTTP Basic client authentication: client id and secret
 * (form-urlencoded unless `encoding` is `'raw'`), joined by `:`, UTF-8, base64.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 * @see https://www.rfc-editor.org/rfc/rfc7617#section-2
 */
export function basicAuthorization(
  clientId: string,
  clientSecret: string,
  encoding: BasicAuthEncoding = 'form-urlencoded',
): string {
  const credentials =
    encoding === 'raw'
      ? `${clientId}:${clientSecret}`
      : `${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`
  return `Basic ${base64Encode(new TextEncoder().encode(credentials))}`
}

/** True when form encoding changes `value`, i.e. the two {@link BasicAuthEncoding}s differ for it. */
export function formEncodingChanges(value: string): boolean {
  return formUrlEncode(value) !== value
}
