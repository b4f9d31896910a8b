import { ConfigurationError } from '@fhir-auth/core/internal/up-front'

/**
 * An optional duration option in seconds (`maxAgeSeconds`, `minValiditySeconds`): absent, or a
 * finite number, 0 or more. A value of another type is reported by its type only.
 *
 * @throws ConfigurationError on `attribute`.
 */
export function optionalSeconds(value: unknown, attribute: string): number | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
    return value
  }
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: typeof value === 'number' ? value : typeof value,
    message: `${attribute} must be a number of seconds, 0 or more`,
  })
}
