import { CryptoError, type CryptoErrorReason } from '@fhir-auth/core'

export { lazy } from '@fhir-auth/core/internal'
/**
 * Re-exported on purpose (ADR 0012): every chunk of this backend reaches this module, so through
 * these it reaches core's main and internal entries, as every chunk of the client does. A bundler
 * that splits per dynamic import groups files by the chunks that reach them (a chunk reaches every
 * file a module it imports re-exports); core's files then stay in one shared chunk, instead of
 * three (error classes and base64, the main entry, the internal entry) that every browser app
 * would fetch up front.
 *
 * @internal
 */
export { CryptoError }

/**
 * Names a WebCrypto failure without repeating its message. A `DOMException`'s name
 * (`DataError`, `NotSupportedError`, `OperationError`, `InvalidAccessError`) says what went
 * wrong; its message is implementation text that we do not control, so it never reaches our
 * errors, where it could one day echo key material.
 */
export function webCryptoFailureName(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const name = (error as { name?: unknown }).name
    if (typeof name === 'string' && name.length > 0 && name.length < 40) return name
  }
  return typeof error
}

/**
 * Turns a rejected WebCrypto call into a `CryptoError`. `NotSupportedError` means the runtime
 * does not implement the algorithm or curve, so it becomes `unsupported-key`; anything else
 * gets the caller's reason. The original error is not attached as `cause` (see above).
 *
 * @param action - what we were doing, e.g. `import the PKCS#8 EC P-384 key`.
 */
export function webCryptoError(
  error: unknown,
  reason: CryptoErrorReason,
  action: string,
): CryptoError {
  const name = webCryptoFailureName(error)
  const finalReason = name === 'NotSupportedError' ? 'unsupported-key' : reason
  return new CryptoError(finalReason, `WebCrypto could not ${action} (${name})`)
}
