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
