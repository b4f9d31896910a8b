import { constants, createPublicKey, type KeyObject, verify } from 'node:crypto'
import { CryptoError, type SignatureCheck } from '@fhir-auth/core'
import type { BoundedCache } from '@fhir-auth/core/backend'
import { type AlgorithmParameters, algorithmParameters } from './algorithm-parameters.js'
import { nodeErrorCode } from './private-key-input.js'

/**
 * Reads a DER SubjectPublicKeyInfo into a public `KeyObject`, reusing earlier results: a chain
 * check verifies several signatures with the same issuer keys, and UDAP checks the same chain
 * on every request.
 *
 * @throws CryptoError `invalid-key` when the bytes are not a SubjectPublicKeyInfo node reads.
 * @internal
 */
export function publicKeyFromSpki(
  spki: Uint8Array,
  publicKeys: BoundedCache<KeyObject>,
): KeyObject {
  const bytes = Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength)
  const cacheKey = bytes.toString('base64')
  const cached = publicKeys.get(cacheKey)
  if (cached !== undefined) return cached
  let keyObject: KeyObject
  try {
    keyObject = createPublicKey({ key: bytes, format: 'der', type: 'spki' })
  } catch (error) {
    throw new CryptoError(
      'invalid-key',
      `the public key is not a readable DER SubjectPublicKeyInfo${nodeErrorCode(error)}`,
    )
  }
  publicKeys.set(cacheKey, keyObject)
  return keyObject
}

/**
 * `CryptoBackend.verifySignature` on `node:crypto`: RS* with PKCS#1 v1.5 padding, PS* with PSS
 * padding and salt length = hash length, ES* over JOSE `r‖s`.
 *
 * Resolves `false` (never rejects) for a signature that does not verify, including one made
 * for another key type. X.509 allows any hash with any curve (a P-384 CA may sign with
 * SHA-256), so an ECDSA `r‖s` is re-padded to the key's curve before checking.
 *
 * @throws CryptoError `invalid-key` for an unreadable public key, `algorithm-mismatch` for an
 *   algorithm name this backend does not know, `invalid-signature` when `data` or `signature`
 *   is not a Uint8Array.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.1
 * @internal
 */
export async function verifyNodeSignature(
  check: SignatureCheck,
  publicKeys: BoundedCache<KeyObject>,
): Promise<boolean> {
  const { algorithm, publicKeySpki, data, signature } = (check ?? {}) as Partial<SignatureCheck>
  const parameters = algorithmParameters(algorithm)
  if (parameters === undefined) {
    throw new CryptoError(
      'algorithm-mismatch',
      `cannot verify ${JSON.stringify(algorithm)} signatures; expected RS256/384/512, PS256/384/512 or ES256/384/512`,
    )
  }
  if (!(publicKeySpki instanceof Uint8Array)) {
    throw new CryptoError('invalid-key', 'publicKeySpki must be the DER SubjectPublicKeyInfo bytes')
  }
  if (!(data instanceof Uint8Array) || !(signature instanceof Uint8Array)) {
    throw new CryptoError(
      'invalid-signature',
      'the signed data and the signature must be Uint8Arrays',
    )
  }
  const keyObject = publicKeyFromSpki(publicKeySpki, publicKeys)
  const fittedSignature = fitSignatureToKey(signature, keyObject, parameters)
  if (fittedSignature === undefined) return false
  try {
    return verify(
      parameters.hash,
      data,
      {
        key: keyObject,
        dsaEncoding: 'ieee-p1363',
        ...(parameters.scheme === 'pss'
          ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: parameters.hashLength }
          : {}),
      },
      fittedSignature,
    )
  } catch {
    // OpenSSL refuses some key/padding pairings outright (an RSASSA-PSS-only key with PKCS#1
    // v1.5 padding): such a signature does not verify with this key.
    return false
  }
}

/**
 * The signature in the form node checks for this key, or `undefined` when the key cannot have
 * made a signature of this scheme.
 */
function fitSignatureToKey(
  signature: Uint8Array,
  keyObject: KeyObject,
  parameters: AlgorithmParameters,
): Uint8Array | undefined {
  const keyType = keyObject.asymmetricKeyType
  if (parameters.scheme === 'pkcs1') return keyType === 'rsa' ? signature : undefined
  if (parameters.scheme === 'pss') {
    return keyType === 'rsa' || keyType === 'rsa-pss' ? signature : undefined
  }
  if (keyType !== 'ec') return undefined
  const curve = keyObject.asymmetricKeyDetails?.namedCurve
  const componentLength = curve === undefined ? undefined : curveComponentLength[curve]
  if (componentLength === undefined) return undefined
  return repadEcdsaSignature(signature, componentLength)
}

/** Bytes of `r` and of `s` per curve, by the OpenSSL names `KeyObject` reports. */
const curveComponentLength: Readonly<Record<string, number | undefined>> = Object.freeze({
  prime256v1: 32,
  secp384r1: 48,
  secp521r1: 66,
})

/** Re-pads the two halves of an `r‖s` signature to `componentLength` bytes each. */
function repadEcdsaSignature(
  signature: Uint8Array,
  componentLength: number,
): Uint8Array | undefined {
  if (signature.length === componentLength * 2) return signature
  if (signature.length === 0 || signature.length % 2 !== 0) return undefined
  const half = signature.length / 2
  const output = new Uint8Array(componentLength * 2)
  for (let part = 0; part < 2; part++) {
    let integer = signature.subarray(part * half, (part + 1) * half)
    while (integer.length > 0 && integer[0] === 0) integer = integer.subarray(1)
    if (integer.length > componentLength) return undefined
    output.set(integer, part * componentLength + componentLength - integer.length)
  }
  return output
}
