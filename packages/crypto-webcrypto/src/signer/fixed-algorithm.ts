import {
  ConfigurationError,
  CryptoError,
  type ImportSignerOptions,
  type KeyDescription,
  type SigningAlgorithm,
} from '@fhir-auth/core'
import { compatibleAlgorithms, selectSigningAlgorithm } from '@fhir-auth/core/jws'

/**
 * Checks a key that can make exactly one algorithm against the selection rules: an RSA
 * `CryptoKey` (bound to its import hash: an RSASSA-PKCS1-v1_5 SHA-384 key makes RS384 only) or
 * a ready `JwsSigner` (its `alg` is fixed).
 *
 * The same rules as {@link selectSigningAlgorithm} apply (profile, key type, the server's list,
 * an explicit `jwtAlgorithm`); a key whose one algorithm is not allowed fails with an error that
 * names that algorithm and what would be needed instead.
 *
 * @param what - how messages name the key, e.g. `this RSASSA-PKCS1-v1_5 SHA-256 CryptoKey`.
 * @throws ConfigurationError `jwtAlgorithm` when an explicit algorithm is not the key's one.
 * @throws CryptoError `algorithm-mismatch` when the profile does not allow the key's algorithm,
 *   `no-common-algorithm` when the server does not advertise it, `unsupported-key` for a key
 *   type the profile does not allow.
 * @see packages/core/README.md#crypto-backends in the fhir-auth repository
 */
export function checkFixedAlgorithm(
  fixed: SigningAlgorithm,
  key: KeyDescription,
  options: ImportSignerOptions,
  what: string,
): SigningAlgorithm {
  const { profile, algorithm, advertisedAlgorithms } = options
  if (algorithm !== undefined) {
    // Let core reject algorithms the profile, key type or server rule out, with its message.
    const chosen = selectSigningAlgorithm({ profile, key, algorithm, advertisedAlgorithms })
    if (chosen === fixed) return fixed
    throw new ConfigurationError({
      invalidAttribute: 'jwtAlgorithm',
      invalidValue: algorithm,
      validValues: [fixed],
      message: `jwtAlgorithm ${JSON.stringify(algorithm)} cannot be used: ${what} can only make ${fixed}`,
    })
  }
  const compatible = compatibleAlgorithms(profile, key)
  if (compatible.length === 0) {
    // No algorithm at all for this key type: core's error explains which types are allowed.
    selectSigningAlgorithm({ profile, key, advertisedAlgorithms })
  }
  if (!compatible.includes(fixed)) {
    throw new CryptoError(
      'algorithm-mismatch',
      `${what} can only make ${fixed}, but ${profile.toUpperCase()} needs ${compatible.join(' or ')}`,
    )
  }
  if (advertisedAlgorithms?.length && !advertisedAlgorithms.includes(fixed)) {
    throw new CryptoError(
      'no-common-algorithm',
      `the server accepts ${advertisedAlgorithms.join(', ')} but ${what} can only make ${fixed}`,
    )
  }
  return fixed
}
