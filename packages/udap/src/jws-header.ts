import { base64UrlDecode, isJsonObject, type JsonRecord } from '@fhir-auth/core/essentials'

/**
 * The protected header of a compact JWS, or `undefined` when the first part is not a
 * base64url JSON object. Reads the header alone, so `alg` can be judged even when the rest is
 * malformed (an `alg: "none"` token has an empty signature part, and the refusal should name
 * the algorithm, not the empty signature).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-7.1
 * @internal
 */
export function readJwsHeader(jws: string): JsonRecord | undefined {
  const [encodedHeader] = jws.split('.')
  const bytes = encodedHeader === undefined ? undefined : base64UrlDecode(encodedHeader)
  if (bytes === undefined || bytes.length === 0) return undefined
  try {
    const header: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    return isJsonObject(header) ? header : undefined
  } catch {
    return undefined
  }
}

/**
 * True for a string shaped like a compact JWS: three base64url parts, the first two non-empty.
 *
 * @internal
 */
export function isCompactJws(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value)
}
