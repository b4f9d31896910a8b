/**
 * JWS algorithms the library signs with. SMART clients SHALL support RS384 and ES384; UDAP:
 * RS256 SHALL, ES256 SHOULD, RS384 and ES384 MAY.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 */
export type SigningAlgorithm = 'RS256' | 'RS384' | 'ES256' | 'ES384'

/** Every {@link SigningAlgorithm}, in the order the library prefers them. */
export const signingAlgorithms: readonly SigningAlgorithm[] = /* @__PURE__ */ Object.freeze([
  'RS256',
  'RS384',
  'ES256',
  'ES384',
])

/**
 * The one thing an HSM or KMS integration writes: something that signs JWS signing input.
 *
 * @example
 * ```ts
 * const signer: JwsSigner = {
 *   alg: 'ES384',
 *   kid: 'key-1',
 *   sign: (input) => myKms.sign(input), // must return JOSE r‖s, not DER
 * }
 * ```
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 */
export interface JwsSigner {
  readonly alg: SigningAlgorithm
  /** Key id for the JWS `kid` header (SMART client assertions). */
  readonly kid?: string | undefined
  /** DER certificates, leaf first; becomes the JWS `x5c` header (UDAP). */
  readonly certificateChain?: readonly Uint8Array[] | undefined
  /**
   * Signs the JWS signing input (`base64url(header).base64url(payload)` as ASCII bytes) and
   * returns the JOSE signature: RSASSA-PKCS1-v1_5 bytes, or ECDSA `r‖s` (64 bytes for ES256,
   * 96 for ES384). A DER-encoded ECDSA signature is converted by the library.
   */
  sign(signingInput: Uint8Array): Promise<Uint8Array>
}

/** True when `value` has the shape of a {@link JwsSigner} (a `sign` function and an `alg`). */
export function isJwsSigner(value: unknown): value is JwsSigner {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as { sign?: unknown; alg?: unknown }
  return typeof candidate.sign === 'function' && typeof candidate.alg === 'string'
}
