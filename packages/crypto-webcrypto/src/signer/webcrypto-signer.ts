import { CryptoError, type JwsSigner, type SigningAlgorithm } from '@fhir-auth/core/essentials'
import {
  bufferSource,
  joseAlgorithmProfile,
  operationParameters,
  webCryptoFailureName,
} from '../webcrypto-calls.js'

/** Input of {@link createWebCryptoSigner}. */
export interface WebCryptoSignerParameters {
  readonly subtle: SubtleCrypto
  /** A private key with the `sign` usage; it may be non-extractable. */
  readonly key: CryptoKey
  readonly alg: SigningAlgorithm
  readonly kid?: string | undefined
  readonly certificateChain?: readonly Uint8Array[] | undefined
}

/**
 * Wraps a WebCrypto private key as a {@link JwsSigner}. The key stays in the closure, so the
 * signer object shows no key material when logged or serialised. WebCrypto's ECDSA already
 * returns JOSE `r‖s`, so signatures need no conversion.
 *
 * @throws CryptoError `invalid-signature` (from `sign`) when WebCrypto refuses to sign; the
 *   message names the DOMException only.
 * @see https://www.w3.org/TR/WebCryptoAPI/#SubtleCrypto-method-sign
 */
export function createWebCryptoSigner(parameters: WebCryptoSignerParameters): JwsSigner {
  const { subtle, key, alg, kid, certificateChain } = parameters
  const profile = joseAlgorithmProfile(alg)
  if (profile === undefined) {
    throw new CryptoError('unsupported-key', `${String(alg)} is not a signing algorithm`)
  }
  const operation = operationParameters(profile)
  const signer: JwsSigner = {
    alg,
    ...(kid === undefined ? {} : { kid }),
    ...(certificateChain === undefined
      ? {}
      : { certificateChain: Object.freeze(certificateChain.map((der) => der.slice())) }),
    async sign(signingInput: Uint8Array): Promise<Uint8Array> {
      if (!(signingInput instanceof Uint8Array)) {
        throw new CryptoError('invalid-signature', 'the JWS signing input must be a Uint8Array')
      }
      try {
        return new Uint8Array(await subtle.sign(operation, key, bufferSource(signingInput)))
      } catch (error) {
        throw new CryptoError(
          'invalid-signature',
          `WebCrypto could not make an ${alg} signature (${webCryptoFailureName(error)})`,
        )
      }
    },
  }
  return Object.freeze(signer)
}
