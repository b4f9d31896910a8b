import { ConfigurationError } from '../errors/configuration-error.js'
import { checkUrl } from '../http/url-policy.js'

/**
 * Returns `value` when it is a URL the transport policy accepts: HTTPS, or loopback HTTP with
 * `allowInsecureLocalhost`. Checked before any request, so nothing (a client secret, an initial
 * access token, a software statement) is sent over plain HTTP.
 *
 * @throws ConfigurationError on `attribute`.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 * @internal
 */
export function requireEndpointUrl(
  value: unknown,
  attribute: string,
  allowInsecureLocalhost: boolean | undefined,
): string {
  if (typeof value === 'string' && checkUrl(value, allowInsecureLocalhost === true) === undefined) {
    return value
  }
  throw new ConfigurationError({
    invalidAttribute: attribute,
    ...(typeof value === 'string' ? { invalidValue: value } : {}),
    message: `${attribute} must be an HTTPS URL${allowInsecureLocalhost === true ? ' (or HTTP on a loopback host)' : ''}`,
  })
}
