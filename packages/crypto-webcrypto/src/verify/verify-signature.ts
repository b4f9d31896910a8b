import type { SignatureVerifier } from '@fhir-auth/core/backend'
import { CryptoError } from '@fhir-auth/core/essentials'
import {
  BoundedCache,
  bytesCacheKey,
  bytesEqual,
  readPublicKeyType,
} from '@fhir-auth/core/verification'
import type { SubtleSource } from '../subtle.js'
import {
  bufferSource,
  importParameters,
  type JoseAlgorithmProfile,
  joseAlgorithmProfile,
  operationParameters,
  webCryptoFailureName,
} from '../webcrypto-calls.js'

/** How many imported verification keys one backend keeps. */
export const verificationKeyCacheSize = 64

/** An imported key with the SubjectPublicKeyInfo it came from, compared on every hit. */
interface CachedVerificationKey {
  readonly spki: Uint8Array
  readonly key: CryptoKey
}

/**
 * Makes the backend's `verifySignature`: imports the SubjectPublicKeyInfo for the algorithm
 * (RS*, PS*, ES*; the key type and EC curve come from the SPKI, read by core) and verifies.
 *
 * Imported keys are cached per SPKI and algorithm in a bounded LRU map, because an RSA key is
 * bound to its hash at import. A key of the wrong type for the algorithm (an RSA key for ES256)
 * cannot verify, so the answer is `false`, not an error. ECDSA signatures are JOSE `r‖s` sized
 * for the key's curve (core re-pads X.509 signatures to the issuer's curve).
 *
 * @throws CryptoError `invalid-key` for an SPKI that is not DER or that WebCrypto cannot import;
 *   `unsupported-key` for a key type, curve or point form core does not support
 *   (`readPublicKeyType`); `invalid-signature` for an algorithm name that is not one of RS/PS/ES 256/384/512, or
 *   for bytes that are not `Uint8Array`s.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3
 */
export function createSignatureVerifier(subtleSource: SubtleSource): SignatureVerifier {
  const cache = new BoundedCache<CachedVerificationKey>(verificationKeyCacheSize)
  return async (check) => {
    if (
      typeof check !== 'object' ||
      check === null ||
      !(check.publicKeySpki instanceof Uint8Array) ||
      !(check.data instanceof Uint8Array) ||
      !(check.signature instanceof Uint8Array)
    ) {
      throw new CryptoError(
        'invalid-signature',
        'verifySignature needs { algorithm, publicKeySpki, data, signature } with Uint8Array bytes',
      )
    }
    const profile = joseAlgorithmProfile(check.algorithm)
    if (profile === undefined) {
      throw new CryptoError(
        'invalid-signature',
        `${JSON.stringify(String(check.algorithm))} is not a supported signature algorithm`,
      )
    }
    const key = await verificationKey(subtleSource, cache, check.publicKeySpki, profile)
    // A key of the other type (an RSA key for ES256) cannot have made the signature.
    if (key === undefined) return false
    try {
      return await subtleSource().verify(
        operationParameters(profile),
        key,
        bufferSource(check.signature),
        bufferSource(check.data),
      )
    } catch {
      // WebCrypto rejects rather than answering false for some malformed inputs.
      return false
    }
  }
}

/**
 * The verification key for `spki` and the algorithm's family (and hash, for RSA), imported once;
 * `undefined` when the SPKI holds a key of the other type. A hit skips reading the SPKI again:
 * only keys whose type matched were stored.
 */
async function verificationKey(
  subtleSource: SubtleSource,
  cache: BoundedCache<CachedVerificationKey>,
  spki: Uint8Array,
  profile: JoseAlgorithmProfile,
): Promise<CryptoKey | undefined> {
  // An EC key does not depend on the hash; an RSA key does.
  const cacheKey = `${profile.family}:${profile.family === 'ECDSA' ? '' : profile.hash}:${bytesCacheKey(spki)}`
  const cached = cache.get(cacheKey)
  if (cached !== undefined && bytesEqual(cached.spki, spki)) return cached.key
  // The key type and curve only: WebCrypto's import checks the numbers, and the whole SPKI
  // reader would bring core's X.509 code into the ID token path.
  const publicKey = readPublicKeyType(spki)
  if ((profile.family === 'ECDSA') !== (publicKey.type === 'EC')) return undefined
  let key: CryptoKey
  try {
    key = await subtleSource().importKey(
      'spki',
      bufferSource(spki),
      importParameters(profile, publicKey.namedCurve),
      false,
      ['verify'],
    )
  } catch (error) {
    const name = webCryptoFailureName(error)
    throw new CryptoError(
      name === 'NotSupportedError' ? 'unsupported-key' : 'invalid-key',
      `WebCrypto could not import the ${profile.family} public key (${name})`,
    )
  }
  cache.set(cacheKey, { spki: spki.slice(), key })
  return key
}
