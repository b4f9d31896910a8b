/**
 * The lifetime a token response gives, in seconds: `expires_in` as a non-negative number, or a
 * string of digits (some servers send `"3600"`); anything else is no lifetime.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 RFC 6749 §5.1 (expires_in)
 * @internal
 */
export function expiresInSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined
  if (typeof value === 'string' && /^\d{1,10}$/.test(value.trim())) return Number(value.trim())
  return undefined
}
