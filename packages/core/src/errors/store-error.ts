import { FhirAuthError, type FhirAuthErrorOptions } from './fhir-auth-error.js'

/** Which store operation failed. */
export type StoreOperation = 'get' | 'set' | 'delete' | 'setIfAbsent' | 'take'

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

  constructor(operation: StoreOperation, message: string, options?: FhirAuthErrorOptions) {
    super(message, options)
    this.operation = operation
  }
}
