import { ConfigurationError } from '../errors/configuration-error.js'
import { configuredUrlProblem } from '../http/url-policy.js'

/**
 * Returns `value` when it is a URL the configured-URL policy accepts (ADR 0003): an absolute
 * HTTPS URL without user info, or loopback HTTP with `allowInsecureLocalhost`. Checked before any
 * request, so nothing (a client secret, an initial access token, a software statement) is sent
 * over plain HTTP or to a URL carrying credentials. The value is never echoed: it may hold some.
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
  const problem =
    typeof value === 'string'
      ? configuredUrlProblem(value, allowInsecureLocalhost === true)
      : 'must be an absolute http(s) URL'
  if (problem === undefined) return value as string
  throw new ConfigurationError({ invalidAttribute: attribute, message: `${attribute} ${problem}` })
}
