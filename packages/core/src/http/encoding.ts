import { base64Encode } from '../crypto/base64.js'

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
 * How the client id and secret are written inside HTTP Basic credentials:
 *
 * - `'form-urlencoded'` (default): each form-urlencoded first, as RFC 6749 §2.3.1 requires;
 * - `'raw'`: as they are (`base64(id:secret)`, RFC 7617), as the SMART IG's example and some
 *   servers expect. Both give the same header unless the id or secret holds characters that
 *   form encoding changes (anything but letters, digits and `*-._`).
 */
export type BasicAuthEncoding = 'form-urlencoded' | 'raw'

/** The values of {@link BasicAuthEncoding}, the default first. */
export const basicAuthEncodings: readonly BasicAuthEncoding[] = ['form-urlencoded', 'raw']

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
