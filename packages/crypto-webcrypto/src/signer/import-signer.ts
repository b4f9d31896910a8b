import {
  CryptoError,
  type ImportSignerOptions,
  type JwsSigner,
  lazyImport,
  type PrivateKeyInput,
  type SigningAlgorithm,
} from '@fhir-auth/core/essentials'
import {
  adoptJwsSigner,
  checkFixedAlgorithm,
  checkImportSignerOptions,
  selectSigningAlgorithm,
} from '@fhir-auth/core/signing'
import type { SubtleSource } from '../subtle.js'
import { importParameters, joseAlgorithmProfile, webCryptoError } from '../webcrypto-calls.js'
import type { KeyMaterial } from './key-material.js'
import { readPrivateJwk } from './private-jwk.js'
import { sortPrivateKey } from './private-key-form.js'
import { createWebCryptoSigner } from './webcrypto-signer.js'

/** For `keyMatchesCertificate`, which loads them from this chunk. */
export { readPrivateJwk, sortPrivateKey }

// What a CryptoKey can sign with, and PEM's DER parsing: chunks of their own, which JWK users
// (and JWK or PEM users, for the first) never download.
const cryptoKeyDescription = lazyImport(() => import('./crypto-key-description.js'))
const pemKeyModule = lazyImport(() => import('./pem-key.js'))

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
  switch (sorted.form) {
    case 'signer':
      return adoptJwsSigner(sorted.signer, options)
    case 'crypto-key': {
      const { describeCryptoKey } = await cryptoKeyDescription()
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
      return createWebCryptoSigner({
        subtle: subtleSource(),
        key: sorted.key,
        alg,
        kid: options.kid,
        certificateChain: options.certificateChain,
      })
    }
    case 'jwk': {
      const { description, keyData } = readPrivateJwk(sorted.jwk)
      return signerFromKeyMaterial(subtleSource, { format: 'jwk', keyData, description }, options)
    }
    case 'pem': {
      const { readPemKey } = await pemKeyModule()
      return signerFromKeyMaterial(subtleSource, readPemKey(sorted.pem), options)
    }
  }
}

/**
 * Chooses the algorithm for key material with core's rules, then imports the key for exactly
 * that algorithm, non-extractable, `sign` only, and wraps it as a signer.
 */
async function signerFromKeyMaterial(
  subtleSource: SubtleSource,
  material: KeyMaterial,
  options: ImportSignerOptions,
): Promise<JwsSigner> {
  const alg = selectSigningAlgorithm({ ...selectionOf(options), key: material.description })
  const subtle = subtleSource()
  const key = await importPrivateKey(subtle, material, alg)
  return createWebCryptoSigner({
    subtle,
    key,
    alg,
    kid: options.kid,
    certificateChain: options.certificateChain,
  })
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
  material: KeyMaterial,
  alg: SigningAlgorithm,
): Promise<CryptoKey> {
  const profile = joseAlgorithmProfile(alg)
  if (profile === undefined) throw new CryptoError('unsupported-key', `${alg} is not supported`)
  const parameters = importParameters(profile, material.description.namedCurve)
  const what = `import the ${material.format === 'jwk' ? 'private JWK' : 'PKCS#8 key'} for ${alg}`
  try {
    if (material.format === 'jwk') {
      return await subtle.importKey('jwk', material.keyData, parameters, false, ['sign'])
    }
    return await subtle.importKey('pkcs8', new Uint8Array(material.keyData), parameters, false, [
      'sign',
    ])
  } catch (error) {
    throw webCryptoError(error, 'invalid-key', what)
  }
}
