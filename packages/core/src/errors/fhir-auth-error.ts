/**
 * Stable error codes. A code is part of the public API: codes are added, never renamed or
 * reused, so callers can `switch (error.code)` across releases.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0002-errors.md
 */
export type FhirAuthErrorCode =
  | 'ERR_CONFIGURATION'
  | 'ERR_DISCOVERY'
  | 'ERR_TOKEN'
  | 'ERR_REGISTRATION'
  | 'ERR_HTTP'
  | 'ERR_CRYPTO'
  | 'ERR_CERTIFICATE_CHAIN'
  | 'ERR_STORE'
  | 'ERR_AUTHORIZATION'
  | 'ERR_ID_TOKEN'

const marker = Symbol.for('fhir-auth.error')

/** Options every fhir-auth error accepts; `cause` must already be free of secrets. */
export interface FhirAuthErrorOptions {
  readonly cause?: unknown
}

/**
 * Base class of every error the library throws on purpose.
 *
 * Messages name what was wrong and what was expected, and never contain a secret (client
 * secret, key, token, code, verifier, assertion or password); the same holds for `cause`.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0002-errors.md
 */
export abstract class FhirAuthError extends Error {
  /** A stable string to switch on; see {@link FhirAuthErrorCode}. */
  abstract readonly code: FhirAuthErrorCode
  /** The class name, kept explicit so minified bundles still report it. */
  abstract override readonly name: string

  constructor(message: string, options?: FhirAuthErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    Object.defineProperty(this, marker, { value: true })
  }

  /**
   * The {@link FhirAuthErrorCode} every instance of this class carries; `undefined` on the
   * classes that stand for several (this base class).
   */
  static readonly code: FhirAuthErrorCode | undefined = undefined

  /**
   * True for any fhir-auth error, even one thrown by another copy of the library (two
   * installed versions, or a bundle beside `node_modules`), where `instanceof` fails.
   */
  static isFhirAuthError(value: unknown): value is FhirAuthError {
    return typeof value === 'object' && value !== null && marker in value
  }

  /**
   * `instanceof` that also works across two installed copies of the library: true when `value`
   * is a fhir-auth error (from any copy) of this class, judged by its stable `code`.
   * `FhirAuthError.isInstance` is true for every fhir-auth error.
   *
   * @example
   * ```ts
   * try {
   *   await client.requestAccessToken({ code, codeVerifier })
   * } catch (error) {
   *   if (TokenError.isInstance(error) && error.error === 'invalid_grant') restartLaunch()
   *   else throw error
   * }
   * ```
   */
  static isInstance<T extends FhirAuthError>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ): value is T {
    if (!FhirAuthError.isFhirAuthError(value)) return false
    // `this` is the class the method was called on (TokenError.isInstance): its own code.
    // biome-ignore lint/complexity/noThisInStatic: polymorphic on purpose, see above.
    const code = (this as unknown as { readonly code: FhirAuthErrorCode | undefined }).code
    return code === undefined || value.code === code
  }
}
