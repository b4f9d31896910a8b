/**
 * The checks `client.diagnose()` and `fhir-auth doctor` run, in the order they report them:
 *
 * - `discovery`: the SMART configuration is served and readable;
 * - `issuer-binding`: the issuer it names is bound to the server (ADR 0013);
 * - `capabilities`: the server advertises this client type and its authentication method;
 * - `pkce`: `S256` is listed;
 * - `signing-algorithm`: the key's algorithm is in `token_endpoint_auth_signing_alg_values_supported`;
 * - `key-strength`: RSA keys of 2048 bits or more;
 * - `jwks`: the configured `jwksUri` answers, holds the `kid`, and its key is the private key's;
 * - `clock`: this clock against the server's `Date` header (more than 60 s apart is `warn`);
 * - `redirect-uri`: absolute, HTTPS or loopback `http:`, no fragment;
 * - `scopes`: the configured scopes against `scopes_supported`;
 * - `token` (with `tryToken`): a real `client_credentials` request with the configured key.
 */
export type DiagnosticCheckId =
  | 'discovery'
  | 'issuer-binding'
  | 'capabilities'
  | 'pkce'
  | 'signing-algorithm'
  | 'key-strength'
  | 'jwks'
  | 'clock'
  | 'redirect-uri'
  | 'scopes'
  | 'token'

/** A check's verdict: `fail` stops the client from working; `warn` may, at some servers. */
export type DiagnosticStatus = 'pass' | 'warn' | 'fail'

/**
 * Why a server may answer `invalid_client` to a signed client assertion (it never says which):
 * `aud` not the exact token URL; an unknown `kid`; a JWKS URL the server cannot reach; an
 * algorithm it does not accept; clock skew; a wrong `client_id`.
 */
export type InvalidClientCause =
  | 'aud'
  | 'unknown-kid'
  | 'jwks-unreachable'
  | 'algorithm'
  | 'clock-skew'
  | 'client-id'

/** One check: what was found, and for `warn` and `fail` what to change. */
export interface DiagnosticCheck {
  readonly id: DiagnosticCheckId
  readonly status: DiagnosticStatus
  /** What was found, in one sentence. Never a secret or key material. */
  readonly message: string
  /** What to change; on every `warn` and `fail`. */
  readonly hint?: string
  /**
   * The `token` check after an `invalid_client`: its likely causes, most likely first (those
   * the other checks found evidence of lead).
   */
  readonly causes?: readonly InvalidClientCause[]
}

/** What `client.diagnose()` returns: `ok` when no check failed. */
export interface DiagnosticReport {
  readonly ok: boolean
  readonly checks: readonly DiagnosticCheck[]
}

/** Options of `client.diagnose()`. */
export interface DiagnoseOptions {
  /**
   * Also send a real `client_credentials` token request with the configured key (the `token`
   * check). The token itself is never part of the report.
   */
  readonly tryToken?: boolean | undefined
  readonly signal?: AbortSignal | undefined
}
