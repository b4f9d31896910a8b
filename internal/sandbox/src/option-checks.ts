import { ConfigurationError } from '@fhir-auth/core'

/**
 * Checks of the scalar options both sandboxes take: each returns `undefined` for an absent
 * option (the caller applies its default) and the value when it is acceptable.
 *
 * @throws {ConfigurationError} `invalidAttribute` = `attribute` for a value of the wrong type
 *   or range.
 */
export function nonEmptyText(value: unknown, attribute: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '') {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: value,
      message: `${attribute} must be a non-empty string`,
    })
  }
  return value
}

/** A whole number of at least 1; see {@link nonEmptyText}. */
export function positiveInteger(value: unknown, attribute: string): number | undefined {
  const checked = nonNegativeInteger(value, attribute)
  if (checked === 0) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: value,
      message: `${attribute} must be a positive integer`,
    })
  }
  return checked
}

/** A whole number of at least 0; see {@link nonEmptyText}. */
export function nonNegativeInteger(value: unknown, attribute: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: value,
      message: `${attribute} must be a non-negative integer`,
    })
  }
  return value
}
