import { CryptoError, type KeyDescription, type SigningAlgorithm } from '@fhir-auth/core/essentials'

/** What a `CryptoKey` can sign with. */
export interface CryptoKeyCapability {
  readonly description: KeyDescription
  /**
   * The one algorithm an RSA key can make: WebCrypto binds RSASSA-PKCS1-v1_5 keys to the hash
   * given at import. `undefined` for ECDSA keys, whose hash is chosen per signature.
   */
  readonly boundAlgorithm: SigningAlgorithm | undefined
  /** How messages name the key, e.g. `this RSASSA-PKCS1-v1_5 SHA-384 CryptoKey`. */
  readonly label: string
}

const rsaAlgorithmByHash: Readonly<Record<string, SigningAlgorithm>> = Object.freeze({
  'SHA-256': 'RS256',
  'SHA-384': 'RS384',
})

/**
 * Reads what a `CryptoKey` can sign with from its `algorithm` and `usages`.
 *
 * @throws CryptoError `invalid-key` for a public or secret key, or a key without the `sign`
 *   usage; `unsupported-key` for RSA-PSS, Ed25519, HMAC and other algorithms JWT clients here
 *   do not use; `algorithm-mismatch` for an RSA key bound to a hash no JWS algorithm we sign
 *   with uses (SHA-1, SHA-512).
 * @see https://www.w3.org/TR/WebCryptoAPI/#cryptokey-interface
 */
export function describeCryptoKey(key: CryptoKey): CryptoKeyCapability {
  if (key.type !== 'private') {
    throw new CryptoError(
      'invalid-key',
      `the CryptoKey is a ${String(key.type)} key; signing needs a private key`,
    )
  }
  if (!key.usages.includes('sign')) {
    throw new CryptoError(
      'invalid-key',
      'the CryptoKey was imported without the "sign" usage; import it with usages ["sign"]',
    )
  }
  const algorithm = key.algorithm as Partial<RsaHashedKeyAlgorithm & EcKeyAlgorithm>
  if (algorithm.name === 'ECDSA') {
    return {
      description: { type: 'EC', namedCurve: algorithm.namedCurve },
      boundAlgorithm: undefined,
      label: `this ECDSA ${String(algorithm.namedCurve)} CryptoKey`,
    }
  }
  if (algorithm.name === 'RSASSA-PKCS1-v1_5') {
    const hash = String(algorithm.hash?.name)
    const bound = rsaAlgorithmByHash[hash]
    const label = `this RSASSA-PKCS1-v1_5 ${hash} CryptoKey`
    if (bound === undefined) {
      throw new CryptoError(
        'algorithm-mismatch',
        `${label} can make no JWS algorithm used here; import the key with hash SHA-384 (RS384) or SHA-256 (RS256)`,
      )
    }
    return { description: { type: 'RSA' }, boundAlgorithm: bound, label }
  }
  throw new CryptoError(
    'unsupported-key',
    `a ${String(algorithm.name)} CryptoKey cannot sign these JWTs; use an RSASSA-PKCS1-v1_5 or ECDSA key`,
  )
}
