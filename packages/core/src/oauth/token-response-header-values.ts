/**
 * Characters a token cannot carry in an HTTP header value: C0 controls (NUL, CR, LF, TAB…), DEL,
 * C1 controls, and anything beyond Latin-1 (a header value is a byte sequence; WHATWG Fetch
 * refuses NUL, CR and LF, and Node's `Headers` refuses code points above U+00FF).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-5.5 RFC 9110 §5.5 field values
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1 RFC 6750 §2.1 (b64token)
 * @see https://fetch.spec.whatwg.org/#concept-header-value WHATWG Fetch: header value
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const headerUnsafe = /[\u0000-\u001f\u007f-\u009f\u0100-\uffff]/

/**
 * True when `value` can travel as (part of) an HTTP header value, as `Authorization: Bearer
 * <access_token>` must: none of the characters {@link headerUnsafe} names.
 *
 * @internal
 */
export function isHeaderSafe(value: string): boolean {
  return !headerUnsafe.test(value)
}

/**
 * The token response members that are sent back in a header: `access_token` (the Bearer
 * credential) and `token_type` (its scheme). A response is refused when one of them, as a
 * string, could not be sent.
 *
 * @returns the name of the first unusable member, or `undefined` when both can travel.
 * @internal
 */
export function headerUnsafeTokenMember(
  response: Readonly<Record<string, unknown>>,
): 'access_token' | 'token_type' | undefined {
  for (const member of ['access_token', 'token_type'] as const) {
    const value = response[member]
    if (typeof value === 'string' && !isHeaderSafe(value)) return member
  }
  return undefined
}
