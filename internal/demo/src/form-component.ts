/**
 * Decodes one `application/x-www-form-urlencoded` component (`+` is a space), as HTTP Basic
 * credentials carry them (RFC 6749 §2.3.1). Malformed escapes are left as they are.
 */
export function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}
