import { ConfigurationError } from '../errors/configuration-error.js'
import { CryptoError } from '../errors/crypto-error.js'
import { compatibleAlgorithms, type KeyDescription, selectSigningAlgorithm } from './algorithms.js'
import type { ImportSignerOptions } from './backend.js'
import type { SigningAlgorithm } from './signer.js'

/**
 * Applies the algorithm selection rules to a key that can make exactly one algorithm: a ready
 * `JwsSigner` (its `alg`) or a WebCrypto RSASSA-PKCS1-v1_5 key (bound to its import hash).
 * The verdicts match `@fhir-auth/crypto-webcrypto`, so a configuration fails the same way on
 * either backend.
 *
 * @param keyName - how messages name the key, e.g. `the JwsSigner`.
 * @throws ConfigurationError `jwtAlgorithm` when an explicit algorithm is not `fixed` (or core
 *   refuses it for the profile, key or server).
 * @throws CryptoError `unsupported-key` for a key family the profile does not allow,
 *   `algorithm-mismatch` when the profile allows the family but not `fixed`,
 *   `no-common-algorithm` when the server does not advertise `fixed`.
 * @see packages/core/README.md#crypto-backends in the fhir-auth repository
 */
export function checkFixedAlgorithm(
  fixed: SigningAlgorithm,
  key: KeyDescription,
  options: ImportSignerOptions,
  keyName: string,
): SigningAlgorithm {
  const { profile, algorithm, advertisedAlgorithms } = options
  if (algorithm !== undefined) {
    // Core's check first: its message explains profile and server rules.
    const chosen = selectSigningAlgorithm({ profile, key, algorithm, advertisedAlgorithms })
    if (chosen !== fixed) {
      throw new ConfigurationError({
        invalidAttribute: 'jwtAlgorithm',
        invalidValue: algorithm,
        validValues: [fixed],
        message: `jwtAlgorithm ${JSON.stringify(algorithm)} cannot be used: ${keyName} makes ${fixed} only`,
      })
    }
    return fixed
  }
  const compatible = compatibleAlgorithms(profile, key)
  // No algorithm at all for this key family: core's error names the families allowed.
  if (compatible.length === 0) selectSigningAlgorithm({ profile, key })
  if (!compatible.includes(fixed)) {
    throw new CryptoError(
      'algorithm-mismatch',
      `${keyName} makes ${fixed} only, but ${profile.toUpperCase()} needs ${compatible.join(' or ')}`,
    )
  }
  if (advertisedAlgorithms?.length && !advertisedAlgorithms.includes(fixed)) {
    throw new CryptoError(
      'no-common-algorithm',
      `the server accepts ${advertisedAlgorithms.join(', ')} but ${keyName} makes ${fixed} only`,
    )
  }
  return fixed
}
