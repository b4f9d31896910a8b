import { CryptoError, type CryptoErrorReason } from '@fhir-auth/core'

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
