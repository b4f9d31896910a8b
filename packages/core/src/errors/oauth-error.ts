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

/** The error members of an OAuth error body, each kept only when it is a string. */
export interface OAuthErrorBody {
  readonly error?: string
  readonly errorDescription?: string
  readonly errorUri?: string
}

const maxFieldLength = 512

/**
 * Reads the RFC 6749 §5.2 members from a parsed response body. Anything that is not a JSON
 * object with a string `error` gives `undefined`; over-long strings are cut so a hostile
 * server cannot flood error messages and logs.
 *
 * @param redact applied to each member *before* it is cut: a secret the server echoed is
 *   replaced whole, so no prefix of it survives the cut (ADR 0002: redaction before
 *   truncation). Callers that hold the request's secrets pass their redaction here.
 */
export function parseOAuthErrorBody(
  body: unknown,
  redact: (text: string) => string = (text) => text,
): OAuthErrorBody | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
  const record = body as Record<string, unknown>
  if (typeof record.error !== 'string' || record.error === '') return undefined
  const field = (text: string) => clip(redact(text))
  const result: { error: string; errorDescription?: string; errorUri?: string } = {
    error: field(record.error),
  }
  if (typeof record.error_description === 'string') {
    result.errorDescription = field(record.error_description)
  }
  if (typeof record.error_uri === 'string') result.errorUri = field(record.error_uri)
  return result
}

/** A server-supplied text cut to 512 characters, an ellipsis marking the cut. */
export function clip(text: string): string {
  return text.length > maxFieldLength ? `${text.slice(0, maxFieldLength)}…` : text
}

/** An OAuth error as messages quote it: `error (description)`, or the error alone. */
export function describeOAuthError(error: string, description: string | undefined): string {
  return description === undefined ? error : `${error} (${description})`
}
