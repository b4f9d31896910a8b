import type { VerificationAlgorithm } from '@fhir-auth/core'

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
