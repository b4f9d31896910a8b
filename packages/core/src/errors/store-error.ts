import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/** Which store operation failed. */
export type StoreOperation = 'get' | 'set' | 'delete' | 'setIfAbsent' | 'take'

/**
 * Why a store operation failed: `failed` (the store threw, refused, answered with something
 * that is not a string, or did not answer in time) or `unreadable` (the store answered, with a
 * value that cannot be read: a sealed value that does not open with this key — sealed with
 * another key, written without one, or altered). The library treats an unreadable value as no
 * value where it can (a session that does not open), and the store as down otherwise.
 */
export type StoreErrorReason = 'failed' | 'unreadable'

/** Options of a {@link StoreError}. */
export interface StoreErrorOptions extends FhirAuthErrorOptions {
  /** Default `failed`. */
  readonly reason?: StoreErrorReason
}

/**
 * A {@link KeyValueStore} failed: it threw, returned something that is not a string, or a
 * sealed value could not be opened. The message names the operation, never the key's secret
 * part nor the value; the store's own error is kept as `cause` only when it is already free of
 * both (an error's name and code, not its message, which may quote the value).
 *
 * @see https://hl7.org/fhir/smart-app-launch/app-launch.html SMART App Launch (what the store keeps)
 */
export class StoreError extends FhirAuthError {
  static override readonly code = 'ERR_STORE' as const
  readonly code = StoreError.code
  override readonly name = 'StoreError'
  readonly operation: StoreOperation
  /** Whether the store failed, or answered with a value that cannot be read. */
  readonly reason: StoreErrorReason

  constructor(operation: StoreOperation, message: string, options?: StoreErrorOptions) {
    super(message, options)
    this.operation = operation
    this.reason = options?.reason ?? 'failed'
  }
}
