import { ConfigurationError } from '../errors/configuration-error.js'
import { CryptoError } from '../errors/crypto-error.js'
import { compatibleAlgorithms, type KeyDescription, selectSigningAlgorithm } from './algorithms.js'
import type { ImportSignerOptions } from './backend.js'
import { type JwsSigner, type SigningAlgorithm, signingAlgorithms } from './signer.js'

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
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
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

/** The key family each signing algorithm implies, since a ready signer hides its key. */
const keyDescriptionByAlgorithm: Readonly<Record<SigningAlgorithm, KeyDescription>> =
  /* @__PURE__ */ Object.freeze({
    RS256: { type: 'RSA' },
    RS384: { type: 'RSA' },
    ES256: { type: 'EC', namedCurve: 'P-256' },
    ES384: { type: 'EC', namedCurve: 'P-384' },
  })

/**
 * `importSigner` for a ready {@link JwsSigner} (HSM, KMS, custom code), in every backend: the
 * same algorithm rules as a key ({@link checkFixedAlgorithm} on its `alg`).
 *
 * The signer is returned as it is; only when the options carry a `kid` or certificate chain
 * the signer lacks is it wrapped, so its own values always win.
 *
 * @throws CryptoError `unsupported-key` when `alg` is not RS256/RS384/ES256/ES384 or the
 *   profile does not allow that key family, `algorithm-mismatch` when the profile needs
 *   another algorithm of the family, `no-common-algorithm` when the server does not accept
 *   `alg`.
 * @throws ConfigurationError `jwtAlgorithm` when an explicit algorithm differs from `alg`.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 * @internal
 */
export function adoptJwsSigner(signer: JwsSigner, options: ImportSignerOptions): JwsSigner {
  const alg: unknown = signer.alg
  if (typeof alg !== 'string' || !Object.hasOwn(keyDescriptionByAlgorithm, alg)) {
    throw new CryptoError(
      'unsupported-key',
      `the JwsSigner's alg ${JSON.stringify(alg)} is not one of ${signingAlgorithms.join(', ')}`,
    )
  }
  const fixed = alg as SigningAlgorithm
  checkFixedAlgorithm(fixed, keyDescriptionByAlgorithm[fixed], options, `the ${fixed} JwsSigner`)
  const kid = signer.kid ?? options.kid
  const certificateChain = signer.certificateChain ?? options.certificateChain
  if (kid === signer.kid && certificateChain === signer.certificateChain) return signer
  return Object.freeze({
    alg: fixed,
    ...(kid === undefined ? {} : { kid }),
    ...(certificateChain === undefined ? {} : { certificateChain }),
    sign: (signingInput: Uint8Array) => signer.sign(signingInput),
  })
}
