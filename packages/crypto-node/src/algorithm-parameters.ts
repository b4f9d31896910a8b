import type { VerificationAlgorithm } from '@fhir-auth/core'

/** How `node:crypto` makes or checks one JWS / X.509 signature scheme. */
export interface AlgorithmParameters {
  /** `pkcs1` = RSASSA-PKCS1-v1_5, `pss` = RSASSA-PSS, `ecdsa` = ECDSA with JOSE `r‖s`. */
  readonly scheme: 'pkcs1' | 'pss' | 'ecdsa'
  /** The `node:crypto` digest name. */
  readonly hash: 'sha256' | 'sha384' | 'sha512'
  /** Digest length in bytes; RSASSA-PSS uses it as the salt length (RFC 7518 §3.5). */
  readonly hashLength: 32 | 48 | 64
}

const sha256 = { hash: 'sha256', hashLength: 32 } as const
const sha384 = { hash: 'sha384', hashLength: 48 } as const
const sha512 = { hash: 'sha512', hashLength: 64 } as const

// One table instead of switch statements: every place that signs or verifies resolves the
// algorithm here, so RS/PS/ES can never disagree about hashes or padding.
const parametersByAlgorithm: Readonly<Record<VerificationAlgorithm, AlgorithmParameters>> =
  Object.freeze({
    RS256: { scheme: 'pkcs1', ...sha256 },
    RS384: { scheme: 'pkcs1', ...sha384 },
    RS512: { scheme: 'pkcs1', ...sha512 },
    PS256: { scheme: 'pss', ...sha256 },
    PS384: { scheme: 'pss', ...sha384 },
    PS512: { scheme: 'pss', ...sha512 },
    ES256: { scheme: 'ecdsa', ...sha256 },
    ES384: { scheme: 'ecdsa', ...sha384 },
    ES512: { scheme: 'ecdsa', ...sha512 },
  })

/**
 * The signing parameters of a JWS algorithm name, or `undefined` for a name this backend does
 * not know (callers turn that into a typed error).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.1
 * @internal
 */
export function algorithmParameters(algorithm: unknown): AlgorithmParameters | undefined {
  if (typeof algorithm !== 'string' || !Object.hasOwn(parametersByAlgorithm, algorithm)) {
    return undefined
  }
  return parametersByAlgorithm[algorithm as VerificationAlgorithm]
}
