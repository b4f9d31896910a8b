import {
  CryptoError,
  type CryptoErrorReason,
  type VerificationAlgorithm,
} from '@fhir-auth/core/essentials'

/*
 * What every capability of the backend uses to call WebCrypto: the parameters of a JOSE
 * algorithm, `BufferSource` views, and rejections turned into our errors. One file because they
 * load together: signing and verification both need all of it, and a bundler puts each file that
 * several lazily loaded capabilities import into a chunk of its own
 * (docs/adr/0012-browser-bytes-by-load-time.md).
 */

/** The WebCrypto family a JOSE algorithm belongs to. */
export type WebCryptoFamily = 'RSASSA-PKCS1-v1_5' | 'RSA-PSS' | 'ECDSA'

/** How one JOSE algorithm maps onto WebCrypto. */
export interface JoseAlgorithmProfile {
  readonly family: WebCryptoFamily
  readonly hash: 'SHA-256' | 'SHA-384' | 'SHA-512'
  /** Byte length of the hash; RSA-PSS uses it as the salt length (RFC 7518 §3.5). */
  readonly hashLength: number
}

const profiles: Readonly<Record<VerificationAlgorithm, JoseAlgorithmProfile>> = Object.freeze({
  RS256: { family: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', hashLength: 32 },
  RS384: { family: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384', hashLength: 48 },
  RS512: { family: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512', hashLength: 64 },
  PS256: { family: 'RSA-PSS', hash: 'SHA-256', hashLength: 32 },
  PS384: { family: 'RSA-PSS', hash: 'SHA-384', hashLength: 48 },
  PS512: { family: 'RSA-PSS', hash: 'SHA-512', hashLength: 64 },
  ES256: { family: 'ECDSA', hash: 'SHA-256', hashLength: 32 },
  ES384: { family: 'ECDSA', hash: 'SHA-384', hashLength: 48 },
  ES512: { family: 'ECDSA', hash: 'SHA-512', hashLength: 64 },
})

/**
 * The WebCrypto family and hash of a JOSE algorithm; `undefined` for a name we do not know, so
 * callers can refuse it with their own error.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.1
 */
export function joseAlgorithmProfile(algorithm: string): JoseAlgorithmProfile | undefined {
  return Object.hasOwn(profiles, algorithm)
    ? profiles[algorithm as VerificationAlgorithm]
    : undefined
}

/**
 * `importKey` parameters for a key used with `profile`. RSA keys are bound to their hash at
 * import; EC keys only to their curve (the hash is chosen per signature).
 */
export function importParameters(
  profile: JoseAlgorithmProfile,
  namedCurve: string | undefined,
): RsaHashedImportParams | EcKeyImportParams {
  if (profile.family === 'ECDSA') return { name: 'ECDSA', namedCurve: namedCurve ?? '' }
  return { name: profile.family, hash: profile.hash }
}

/** `sign`/`verify` parameters for `profile`. */
export function operationParameters(
  profile: JoseAlgorithmProfile,
): AlgorithmIdentifier | RsaPssParams | EcdsaParams {
  if (profile.family === 'ECDSA') return { name: 'ECDSA', hash: profile.hash }
  if (profile.family === 'RSA-PSS') return { name: 'RSA-PSS', saltLength: profile.hashLength }
  return { name: 'RSASSA-PKCS1-v1_5' }
}

/**
 * WebCrypto takes `BufferSource`, which (since TypeScript 5.7) excludes views of a
 * `SharedArrayBuffer`. Callers give us plain `Uint8Array`s; this keeps the view when it already
 * sits on an `ArrayBuffer` and copies otherwise, so no cast hides a real mismatch.
 */
export function bufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (bytes.buffer instanceof ArrayBuffer) return bytes as Uint8Array<ArrayBuffer>
  return new Uint8Array(bytes)
}

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
