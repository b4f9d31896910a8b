import { type KeyObject, sign } from 'node:crypto'
import {
  CryptoError,
  type ImportSignerOptions,
  isJwsSigner,
  type JwsSigner,
  type KeyDescription,
  type SigningAlgorithm,
} from '@fhir-auth/core'
import {
  adoptJwsSigner,
  checkFixedAlgorithm,
  checkImportSignerOptions,
  selectSigningAlgorithm,
} from '@fhir-auth/core/backend'
import { algorithmParameters } from './algorithm-parameters.js'
import { describeKeyObject } from './key-description.js'
import { nodeErrorCode, type ResolvedPrivateKey, resolvePrivateKey } from './private-key-input.js'

/**
 * `CryptoBackend.importSigner` on `node:crypto`: resolves the key once, chooses the algorithm
 * with core's selection rules, and returns a signer whose `sign` only calls native code.
 *
 * A ready {@link JwsSigner} is passed through after the same algorithm checks.
 *
 * @throws CryptoError `invalid-key` for an unreadable, encrypted, public or wrongly typed key;
 *   `unsupported-key` for a key type or curve the profile does not allow; `no-common-algorithm`
 *   when the server accepts none of the key's algorithms; `algorithm-mismatch` when a WebCrypto
 *   key is bound to a hash the profile cannot use, or a signer's `alg` is not the profile's.
 * @throws ConfigurationError `jwtAlgorithm` when the explicit algorithm cannot be used, or an
 *   option of the wrong type.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/core/README.md#crypto-backends
 * @internal
 */
export async function importNodeSigner(key: unknown, options: unknown): Promise<JwsSigner> {
  const checkedOptions = checkImportSignerOptions(options)
  if (isJwsSigner(key)) return adoptJwsSigner(key, checkedOptions)
  const resolved = resolvePrivateKey(key)
  const description = describeKeyObject(resolved.keyObject)
  const algorithm = chooseAlgorithm(resolved, description, checkedOptions)
  return createKeyObjectSigner(resolved.keyObject, algorithm, checkedOptions)
}

function chooseAlgorithm(
  resolved: ResolvedPrivateKey,
  key: KeyDescription,
  options: ImportSignerOptions,
): SigningAlgorithm {
  const { profile, algorithm, advertisedAlgorithms } = options
  if (resolved.boundHash === undefined) {
    return selectSigningAlgorithm({ profile, key, algorithm, advertisedAlgorithms })
  }
  const bound = rsaAlgorithmByHash[resolved.boundHash]
  const keyName = `this RSASSA-PKCS1-v1_5 ${resolved.boundHash} CryptoKey`
  if (bound === undefined) {
    throw new CryptoError(
      'algorithm-mismatch',
      `${keyName} makes no algorithm used here; import it with hash SHA-384 (RS384) or SHA-256 (RS256)`,
    )
  }
  return checkFixedAlgorithm(bound, key, options, keyName)
}

/** WebCrypto binds RSASSA-PKCS1-v1_5 keys to one hash, hence to one JWS algorithm. */
const rsaAlgorithmByHash: Readonly<Record<string, SigningAlgorithm | undefined>> = Object.freeze({
  'SHA-256': 'RS256',
  'SHA-384': 'RS384',
})

/**
 * A {@link JwsSigner} over a private `KeyObject`. `sign` runs `crypto.sign` with a callback,
 * so the work happens on libuv's thread pool and RSA signing does not block the event loop;
 * ECDSA signatures come out as JOSE `r‖s` (`dsaEncoding: 'ieee-p1363'`).
 *
 * The key lives only in the closure: it never appears in the signer's properties, JSON or
 * `util.inspect` output.
 *
 * @throws CryptoError `invalid-signature` (from `sign`) when the input is not bytes or
 *   `node:crypto` fails.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.1
 * @internal
 */
export function createKeyObjectSigner(
  keyObject: KeyObject,
  algorithm: SigningAlgorithm,
  options: Pick<ImportSignerOptions, 'kid' | 'certificateChain'>,
): JwsSigner {
  const parameters = algorithmParameters(algorithm)
  if (parameters === undefined) {
    throw new CryptoError('algorithm-mismatch', `${algorithm} is not a signing algorithm`)
  }
  const signingKey = { key: keyObject, dsaEncoding: 'ieee-p1363' } as const
  const certificateChain = options.certificateChain && Object.freeze([...options.certificateChain])
  return Object.freeze({
    alg: algorithm,
    ...(options.kid === undefined ? {} : { kid: options.kid }),
    ...(certificateChain === undefined ? {} : { certificateChain }),
    sign(signingInput: Uint8Array): Promise<Uint8Array> {
      if (!(signingInput instanceof Uint8Array)) {
        return Promise.reject(
          new CryptoError('invalid-signature', 'the JWS signing input must be a Uint8Array'),
        )
      }
      return new Promise((resolve, reject) => {
        sign(parameters.hash, signingInput, signingKey, (error, signature) => {
          if (error) {
            reject(
              new CryptoError(
                'invalid-signature',
                `the ${algorithm} signature could not be made${nodeErrorCode(error)}`,
              ),
            )
          } else {
            resolve(new Uint8Array(signature.buffer, signature.byteOffset, signature.byteLength))
          }
        })
      })
    },
  })
}
