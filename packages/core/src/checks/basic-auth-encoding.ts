import { ConfigurationError } from '../errors/configuration-error.js'
import { type BasicAuthEncoding, basicAuthEncodings } from '../http/basic-auth-encodings.js'

/**
 * Returns the HTTP Basic credential encoding, `form-urlencoded` (RFC 6749 §2.3.1) when absent.
 *
 * @throws ConfigurationError on `basicAuthEncoding` for anything but `form-urlencoded` or `raw`.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 * @internal
 */
export function requireBasicAuthEncoding(value: unknown): BasicAuthEncoding {
  if (value === undefined) return 'form-urlencoded'
  if ((basicAuthEncodings as readonly unknown[]).includes(value)) return value as BasicAuthEncoding
  throw new ConfigurationError({
    invalidAttribute: 'basicAuthEncoding',
    invalidValue: value,
    validValues: basicAuthEncodings,
  })
}
