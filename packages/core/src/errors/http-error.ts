import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/**
 * Why an HTTP exchange failed before any protocol logic could look at the response.
 *
 * - `invalid-url`: not an absolute URL; `insecure-url`: not HTTPS (and not loopback HTTP under
 *   `allowInsecureLocalhost`); `invalid-body`: the JSON body cannot be serialised (cycles, BigInt);
 * - `network`: `fetch` rejected, or a part of the library loaded on demand could not be loaded
 *   (a browser chunk gone after a deployment: `url` is then empty and `cause` names the chunk);
 *   `timeout`: the library's timeout fired; `aborted`: the caller's `AbortSignal` fired;
 * - `redirect`: a 3xx on a POST, too many redirects, or a redirect to a URL the policy refuses;
 * - `too-large`: the body exceeded the size cap; `invalid-json` / `not-an-object`: the body is
 *   not the JSON object the exchange needs.
 */
export type HttpErrorReason =
  | 'invalid-url'
  | 'insecure-url'
  | 'invalid-body'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'redirect'
  | 'too-large'
  | 'invalid-json'
  | 'not-an-object'

/** What an {@link HttpError} carries. */
export interface HttpErrorFields {
  readonly message: string
  readonly reason: HttpErrorReason
  /** The request URL with query values removed; empty when library code did not load. */
  readonly url: string
  readonly status?: number | undefined
}

/**
 * A transport-level failure. Flows convert a failure of their own requests to their own error
 * (`DiscoveryError`, `TokenError`, `RegistrationError`) and keep it as `cause`. Code of the library
 * loaded on demand that does not load is this error as is, from any operation (ADR 0002).
 */
export class HttpError extends FhirAuthError {
  static override readonly code = 'ERR_HTTP' as const
  readonly code = HttpError.code
  override readonly name = 'HttpError'
  readonly reason: HttpErrorReason
  readonly url: string
  readonly status: number | undefined

  constructor(fields: HttpErrorFields, options?: FhirAuthErrorOptions) {
    super(fields.message, options)
    this.reason = fields.reason
    this.url = fields.url
    this.status = fields.status
  }
}
