import {
  CryptoError,
  type ImportSignerOptions,
  type JwsSigner,
  type KeyDescription,
  type SigningAlgorithm,
  signingAlgorithms,
} from '@fhir-auth/core'
import { checkFixedAlgorithm } from '@fhir-auth/core/jws'

/** The key family each JWS algorithm implies, since a ready signer hides its key. */
const keyDescriptionByAlgorithm: Readonly<Record<SigningAlgorithm, KeyDescription>> = Object.freeze(
  {
    RS256: { type: 'RSA' },
    RS384: { type: 'RSA' },
    ES256: { type: 'EC', namedCurve: 'P-256' },
    ES384: { type: 'EC', namedCurve: 'P-384' },
  },
)

/**
 * Accepts a ready {@link JwsSigner} (HSM, KMS, custom code) under the same algorithm rules as
 * a key: its `alg` must be one the profile allows for that key family and, when the server
 * advertised a list, one it accepts; an explicit algorithm must equal it.
 *
 * The signer is returned as it is; only when the options carry a `kid` or certificate chain
 * the signer lacks is it wrapped, so its own values always win.
 *
 * @throws CryptoError `unsupported-key` when `alg` is not RS256/RS384/ES256/ES384 or the
 *   profile does not allow that key family, `algorithm-mismatch` when the profile needs
 *   another algorithm of the family, `no-common-algorithm` when the server does not accept
 *   `alg`.
 * @throws ConfigurationError `jwtAlgorithm` when an explicit algorithm differs from `alg`.
 * @see packages/core/README.md#crypto-backends in the fhir-auth repository
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
    alg: signer.alg,
    ...(kid === undefined ? {} : { kid }),
    ...(certificateChain === undefined ? {} : { certificateChain }),
    sign: (signingInput: Uint8Array) => signer.sign(signingInput),
  })
}
