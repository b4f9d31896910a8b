import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'
import { clip, describeOAuthError } from './oauth-error.js'

/**
 * What went wrong on the way back from the authorization server, before any token request:
 * the server's own `error` (`access_denied`, `invalid_scope`, UDAP Tiered OAuth's `invalid_idp`…)
 * or one of the library's callback checks: `state_mismatch` (no state, or none stored for it:
 * unknown, expired or already used), `iss_mismatch` (RFC 9207), `missing_code`.
 */
export interface AuthorizationErrorFields {
  readonly error: string
  readonly errorDescription?: string | undefined
  readonly errorUri?: string | undefined
  /** The callback's `state`, when it had one (not a secret once used: records are single-use). */
  readonly state?: string | undefined
  readonly message?: string | undefined
}

/**
 * The authorization callback reported an error or failed a check; no code was exchanged.
 * Callback parameters come from a URL anyone can craft, so each field is cut to 512 characters
 * and stripped of control characters before it is kept or shown.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1 RFC 6749 §4.1.2.1 (error response)
 * @see https://www.rfc-editor.org/rfc/rfc9207 RFC 9207 (iss in the authorization response)
 */
export class AuthorizationError extends FhirAuthError {
  static override readonly code = 'ERR_AUTHORIZATION' as const
  readonly code = AuthorizationError.code
  override readonly name = 'AuthorizationError'
  readonly error: string
  readonly errorDescription: string | undefined
  readonly errorUri: string | undefined
  readonly state: string | undefined

  constructor(fields: AuthorizationErrorFields, options?: FhirAuthErrorOptions) {
    const error = clean(fields.error) ?? 'unknown_error'
    const description = clean(fields.errorDescription)
    super(
      fields.message ?? `authorization failed: ${describeOAuthError(error, description)}`,
      options,
    )
    this.error = error
    this.errorDescription = description
    this.errorUri = clean(fields.errorUri)
    this.state = clean(fields.state)
  }
}

function clean(value: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return clip(value.replace(/[\u0000-\u001f\u007f]/g, ' '))
}
