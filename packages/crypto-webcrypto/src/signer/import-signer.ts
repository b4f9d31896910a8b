import {
  CryptoError,
  type ImportSignerOptions,
  type JwsSigner,
  type KeyDescription,
  type PrivateKeyInput,
  type SigningAlgorithm,
} from '@fhir-auth/core'
import {
  adoptJwsSigner,
  checkFixedAlgorithm,
  checkImportSignerOptions,
  selectSigningAlgorithm,
} from '@fhir-auth/core/signing'
import { importParameters, joseAlgorithmProfile } from '../algorithm-parameters.js'
import type { SubtleSource } from '../subtle.js'
import { webCryptoError } from '../webcrypto-failure.js'
import { describeCryptoKey } from './crypto-key-description.js'
import { readPrivateJwk } from './private-jwk.js'
import { sortPrivateKey } from './private-key-form.js'
import { createWebCryptoSigner } from './webcrypto-signer.js'

/**
 * Turns a private key into a {@link JwsSigner}: decide the key type and curve, choose the
 * algorithm with core's `selectSigningAlgorithm`, then import the key for exactly that
 * algorithm, non-extractable, with the `sign` usage only.
 *
 * - PEM: PKCS#8, PKCS#1 RSA and SEC1 EC (converted to PKCS#8 by core).
 * - Private JWK (RSA or EC).
 * - `CryptoKey`, also non-extractable. RSA keys are bound to their import hash, so they make one
 *   algorithm only and the choice must allow it; ECDSA keys choose the hash per signature.
 * - A ready `JwsSigner` is used as it is; its `alg` must be allowed. `kid` and
 *   `certificateChain` from the options fill in what the signer does not carry itself.
 * - A Node `KeyObject` is refused (use `@fhir-auth/crypto-node`).
 *
 * @throws CryptoError `invalid-key`, `unsupported-key`, `algorithm-mismatch`,
 *   `no-common-algorithm`; ConfigurationError `jwtAlgorithm` for an explicit algorithm the key
 *   cannot make, and on the option named for options of the wrong type.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 */
export async function importSigner(
  subtleSource: SubtleSource,
  key: PrivateKeyInput,
  untrustedOptions: ImportSignerOptions,
): Promise<JwsSigner> {
  const options = checkImportSignerOptions(untrustedOptions)
  const sorted = sortPrivateKey(key)
  const extras = { kid: options.kid, certificateChain: options.certificateChain }
  switch (sorted.form) {
    case 'signer':
      return adoptJwsSigner(sorted.signer, options)
    case 'crypto-key': {
      const capability = describeCryptoKey(sorted.key)
      const alg =
        capability.boundAlgorithm === undefined
          ? selectSigningAlgorithm({ ...selectionOf(options), key: capability.description })
          : checkFixedAlgorithm(
              capability.boundAlgorithm,
              capability.description,
              options,
              capability.label,
            )
      return createWebCryptoSigner({ subtle: subtleSource(), key: sorted.key, alg, ...extras })
    }
    case 'jwk': {
      const { description, keyData } = readPrivateJwk(sorted.jwk)
      const alg = selectSigningAlgorithm({ ...selectionOf(options), key: description })
      const subtle = subtleSource()
      const cryptoKey = await importPrivateKey(subtle, 'jwk', keyData, alg, description)
      return createWebCryptoSigner({ subtle, key: cryptoKey, alg, ...extras })
    }
    case 'pem': {
      // PEM needs DER parsing, which JWK and CryptoKey users never download.
      const { describePrivateKeyPem } = await import('./pem-private-key.js')
      const described = describePrivateKeyPem(sorted.pem)
      const alg = selectSigningAlgorithm({ ...selectionOf(options), key: described })
      const subtle = subtleSource()
      const cryptoKey = await importPrivateKey(subtle, 'pkcs8', described.pkcs8, alg, described)
      return createWebCryptoSigner({ subtle, key: cryptoKey, alg, ...extras })
    }
  }
}

function selectionOf(options: ImportSignerOptions) {
  return {
    profile: options.profile,
    algorithm: options.algorithm,
    advertisedAlgorithms: options.advertisedAlgorithms,
  }
}

/** Imports private key material for one algorithm, non-extractable, for signing only. */
async function importPrivateKey(
  subtle: SubtleCrypto,
  format: 'jwk' | 'pkcs8',
  keyData: JsonWebKey | Uint8Array,
  alg: SigningAlgorithm,
  description: KeyDescription,
): Promise<CryptoKey> {
  const profile = joseAlgorithmProfile(alg)
  if (profile === undefined) throw new CryptoError('unsupported-key', `${alg} is not supported`)
  const parameters = importParameters(profile, description.namedCurve)
  const what = `import the ${format === 'jwk' ? 'private JWK' : 'PKCS#8 key'} for ${alg}`
  try {
    if (format === 'jwk') {
      return await subtle.importKey('jwk', keyData as JsonWebKey, parameters, false, ['sign'])
    }
    const der = keyData as Uint8Array
    return await subtle.importKey('pkcs8', new Uint8Array(der), parameters, false, ['sign'])
  } catch (error) {
    throw webCryptoError(error, 'invalid-key', what)
  }
}
