import { ConfigurationError } from '../errors/configuration-error.js'
import { CryptoError } from '../errors/crypto-error.js'
import type { SigningAlgorithm } from './signer.js'

/**
 * Which profile's algorithm rules apply when a key becomes a signer: SMART (RS384 for RSA,
 * ES384 for P-384) or UDAP (RS256/RS384, ES256, ES384, intersected with the server's list).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 */
export type KeyProfile = 'smart' | 'udap'

/** The facts about a key that decide which algorithms it can make. */
export interface KeyDescription {
  readonly type: 'RSA' | 'EC'
  /** JOSE curve name for EC keys: `P-256`, `P-384`, `P-521`, … */
  readonly namedCurve?: string | undefined
}

/** Input of {@link selectSigningAlgorithm}. */
export interface AlgorithmSelection {
  readonly profile: KeyProfile
  readonly key: KeyDescription
  /** An explicit choice (the config's `jwtAlgorithm`). */
  readonly algorithm?: string | undefined
  /** The server's advertised algorithms, if it listed any. */
  readonly advertisedAlgorithms?: readonly string[] | undefined
}

/**
 * Algorithms a key can make under a profile, most preferred first.
 *
 * SMART allows RS384 (RSA) and ES384 (P-384) only. UDAP allows RS256 then RS384 for RSA (RS256
 * is the one every UDAP server SHALL support), ES256 for P-256 and ES384 for P-384.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 */
export function compatibleAlgorithms(profile: KeyProfile, key: KeyDescription): SigningAlgorithm[] {
  if (key.type === 'RSA') return profile === 'smart' ? ['RS384'] : ['RS256', 'RS384']
  if (key.namedCurve === 'P-384') return ['ES384']
  if (key.namedCurve === 'P-256' && profile === 'udap') return ['ES256']
  return []
}

/**
 * Chooses the JWS algorithm for a key.
 *
 * An explicit algorithm must be one the key can make under the profile (and, when the server
 * advertised a list, one it lists); otherwise a `ConfigurationError` on `jwtAlgorithm` names
 * the algorithms that would work. Without one, the first compatible algorithm the server
 * accepts is used.
 *
 * @throws CryptoError `unsupported-key` for a key type or curve the profile does not allow,
 *   `no-common-algorithm` when the server advertises none of the compatible algorithms.
 * @throws ConfigurationError `jwtAlgorithm` when the explicit choice cannot be used.
 */
export function selectSigningAlgorithm(selection: AlgorithmSelection): SigningAlgorithm {
  const { profile, key, algorithm, advertisedAlgorithms } = selection
  if (profile !== 'smart' && profile !== 'udap') {
    throw new ConfigurationError({
      invalidAttribute: 'profile',
      invalidValue: profile,
      validValues: ['smart', 'udap'],
    })
  }
  const compatible = compatibleAlgorithms(profile, key)
  if (compatible.length === 0) {
    const allowed = profile === 'smart' ? 'RSA or EC P-384' : 'RSA, EC P-256 or EC P-384'
    const described = key.type === 'EC' ? `EC ${key.namedCurve ?? 'unknown curve'}` : key.type
    throw new CryptoError(
      'unsupported-key',
      // `described` starts with RSA or EC, both read with a vowel sound: "an".
      `an ${described} key cannot sign ${profile.toUpperCase()} JWTs; use ${allowed}`,
    )
  }
  const usable = advertisedAlgorithms?.length
    ? compatible.filter((candidate) => advertisedAlgorithms.includes(candidate))
    : compatible
  if (algorithm !== undefined) {
    if ((usable as readonly string[]).includes(algorithm)) return algorithm as SigningAlgorithm
    throw new ConfigurationError({
      invalidAttribute: 'jwtAlgorithm',
      invalidValue: algorithm,
      validValues: usable,
      message:
        usable.length > 0
          ? `jwtAlgorithm ${JSON.stringify(algorithm)} cannot be used with this key; use ${usable.join(' or ')}`
          : `jwtAlgorithm ${JSON.stringify(algorithm)} cannot be used: the key makes ${compatible.join(', ')} and the server accepts ${advertisedAlgorithms?.join(', ')}`,
    })
  }
  const chosen = usable[0]
  if (chosen === undefined) {
    throw new CryptoError(
      'no-common-algorithm',
      `the server accepts ${advertisedAlgorithms?.join(', ')} but this key can only make ${compatible.join(', ')}`,
    )
  }
  return chosen
}
