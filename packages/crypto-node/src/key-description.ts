import type { KeyObject } from 'node:crypto'
import { CryptoError, type KeyDescription } from '@fhir-auth/core'

/** OpenSSL curve names as `KeyObject.asymmetricKeyDetails` reports them → JOSE names. */
const joseCurveNames: Readonly<Record<string, string>> = Object.freeze({
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
})

/**
 * RFC 7518 §3.3: RSA keys for RS256/RS384 must be at least 2048 bits; verifiers such as jose
 * refuse shorter ones, so a short key is refused here instead of at the server.
 */
const minimumRsaModulusBits = 2048

/**
 * The facts about a key that decide which JWS algorithms it can make: RSA, or EC with its JOSE
 * curve name (`P-256`, `P-384`, `P-521`, or the OpenSSL name for other curves, which the
 * algorithm selection then refuses by name).
 *
 * @throws CryptoError `unsupported-key` for a key type that cannot make RS* or ES* signatures
 *   (RSASSA-PSS-only, Ed25519, DSA, …) or an RSA key shorter than 2048 bits.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.3
 * @internal
 */
export function describeKeyObject(keyObject: KeyObject): KeyDescription {
  const keyType = keyObject.asymmetricKeyType
  if (keyType === 'rsa') {
    const bits = keyObject.asymmetricKeyDetails?.modulusLength ?? 0
    if (bits < minimumRsaModulusBits) {
      throw new CryptoError(
        'unsupported-key',
        `the RSA key has ${bits} bits; RS256/RS384 need at least ${minimumRsaModulusBits}`,
      )
    }
    return { type: 'RSA' }
  }
  if (keyType === 'ec') {
    const curve = keyObject.asymmetricKeyDetails?.namedCurve ?? 'unknown curve'
    return { type: 'EC', namedCurve: joseCurveNames[curve] ?? curve }
  }
  throw new CryptoError(
    'unsupported-key',
    `a ${keyType ?? 'non-asymmetric'} key cannot make RS256, RS384, ES256 or ES384 signatures; use an RSA or EC key`,
  )
}
