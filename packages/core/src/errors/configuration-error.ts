import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/** What a {@link ConfigurationError} carries, as the spec's error table names it. */
export interface ConfigurationErrorFields {
  /** The attribute as the caller wrote it: `protocol`, `clientType`, `clientId`, `scopes`, … */
  readonly invalidAttribute: string
  /** The offending value, or a description of it when the value could be a secret. */
  readonly invalidValue?: unknown
  /** The values that would have been accepted, when the spec states them. */
  readonly validValues?: readonly string[] | undefined
  /** A sentence saying what was expected; defaults to a message built from the fields. */
  readonly message?: string
}

/**
 * The caller's configuration or arguments cannot work: a wrong type, a missing attribute a
 * flow needs, or a value outside the allowed set.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0002-errors.md
 */
export class ConfigurationError extends FhirAuthError {
  static override readonly code = 'ERR_CONFIGURATION' as const
  readonly code = ConfigurationError.code
  override readonly name = 'ConfigurationError'
  readonly invalidAttribute: string
  readonly invalidValue: unknown
  readonly validValues: readonly string[] | undefined

  constructor(fields: ConfigurationErrorFields, options?: FhirAuthErrorOptions) {
    super(fields.message ?? defaultMessage(fields), options)
    this.invalidAttribute = fields.invalidAttribute
    this.invalidValue = fields.invalidValue
    this.validValues = fields.validValues === undefined ? undefined : [...fields.validValues]
  }
}

function defaultMessage(fields: ConfigurationErrorFields): string {
  const valid = fields.validValues?.length ? `; valid values: ${fields.validValues.join(', ')}` : ''
  if (fields.invalidValue === undefined) return `${fields.invalidAttribute} is required${valid}`
  return `invalid ${fields.invalidAttribute}: ${describeValue(fields.invalidValue)}${valid}`
}

/** A short, non-secret description of a value for messages: strings quoted and truncated. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 64 ? `${value.slice(0, 61)}...` : value)
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'symbol') return value.toString()
  return String(value)
}
