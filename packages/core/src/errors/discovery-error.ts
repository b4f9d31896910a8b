import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/** What a {@link DiscoveryError} carries. */
export interface DiscoveryErrorFields {
  readonly message: string
  /** The discovery URL that was requested (without query string values). */
  readonly endpoint: string | undefined
  /** The HTTP status of the failed response, when there was one. */
  readonly status?: number | undefined
}

/**
 * Server metadata could not be obtained or cannot be trusted: the request failed, the document
 * is malformed, a discovered endpoint is not usable HTTPS, or (UDAP) `signed_metadata` failed
 * validation. Failures are never cached.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0002-errors.md
 */
export class DiscoveryError extends FhirAuthError {
  static override readonly code = 'ERR_DISCOVERY' as const
  readonly code = DiscoveryError.code
  override readonly name = 'DiscoveryError'
  readonly endpoint: string | undefined
  readonly status: number | undefined

  constructor(fields: DiscoveryErrorFields, options?: FhirAuthErrorOptions) {
    super(fields.message, options)
    this.endpoint = fields.endpoint
    this.status = fields.status
  }
}
