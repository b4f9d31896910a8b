import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/**
 * The fields of an OAuth error response body (RFC 6749 §5.2, RFC 7591 §3.2.2), camelCased,
 * plus the HTTP status. Every field is `undefined` when the failure had no such part (a
 * transport failure has no status; a text/html 502 has no `error`).
 */
export interface OAuthErrorFields {
  readonly message: string
  readonly status?: number | undefined
  readonly error?: string | undefined
  readonly errorDescription?: string | undefined
  readonly errorUri?: string | undefined
}

abstract class OAuthFlowError extends FhirAuthError {
  readonly status: number | undefined
  /** The OAuth `error` code, e.g. `invalid_grant` or `unapproved_software_statement`. */
  readonly error: string | undefined
  readonly errorDescription: string | undefined
  readonly errorUri: string | undefined

  constructor(fields: OAuthErrorFields, options?: FhirAuthErrorOptions) {
    super(fields.message, options)
    this.status = fields.status
    this.error = fields.error
    this.errorDescription = fields.errorDescription
    this.errorUri = fields.errorUri
  }
}

/**
 * A token request (code exchange, refresh, backend services, UDAP client credentials) failed:
 * an OAuth error response, an unusable success response, or a transport failure or timeout.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0002-errors.md
 */
export class TokenError extends OAuthFlowError {
  static override readonly code = 'ERR_TOKEN' as const
  readonly code = TokenError.code
  override readonly name = 'TokenError'
}

/**
 * A client registration, modification or cancellation failed: an RFC 7591 / UDAP error
 * response, an unusable success response, or a transport failure or timeout.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0002-errors.md
 */
export class RegistrationError extends OAuthFlowError {
  static override readonly code = 'ERR_REGISTRATION' as const
  readonly code = RegistrationError.code
  override readonly name = 'RegistrationError'
}

const maxFieldLength = 512

/** A server-supplied text cut to 512 characters, an ellipsis marking the cut. */
export function clip(text: string): string {
  return text.length > maxFieldLength ? `${text.slice(0, maxFieldLength)}…` : text
}

/** An OAuth error as messages quote it: `error (description)`, or the error alone. */
export function describeOAuthError(error: string, description: string | undefined): string {
  return description === undefined ? error : `${error} (${description})`
}
