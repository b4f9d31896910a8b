import { describePrivateKeyPem, encodePem } from '@fhir-auth/core/backend'
import { webCryptoError } from '../webcrypto-calls.js'
import type { PublicJwkMembers } from './public-key-match.js'

/**
 * The public members (RSA `n`/`e`, EC `crv`/`x`/`y`) of a PEM private key. The key is imported
 * as extractable only to export them; the private members are dropped at once.
 *
 * @throws CryptoError `invalid-key` / `unsupported-key` for a key core or WebCrypto cannot read.
 */
export async function publicMembersOfPem(
  subtle: SubtleCrypto,
  pem: string,
): Promise<PublicJwkMembers> {
  const described = describePrivateKeyPem(pem)
  const parameters =
    described.type === 'RSA'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      : { name: 'ECDSA', namedCurve: described.namedCurve ?? '' }
  let key: CryptoKey
  try {
    key = await subtle.importKey('pkcs8', new Uint8Array(described.pkcs8), parameters, true, [
      'sign',
    ])
  } catch (error) {
    throw webCryptoError(error, 'invalid-key', `import the PKCS#8 ${described.type} key`)
  }
  return exportPublicMembers(subtle, key)
}

/** {@link publicMembersOfPem} for PKCS#8 DER bytes. */
export function publicMembersOfPkcs8(
  subtle: SubtleCrypto,
  pkcs8: Uint8Array,
): Promise<PublicJwkMembers> {
  return publicMembersOfPem(subtle, encodePem(pkcs8, 'PRIVATE KEY'))
}

/**
 * The public members of an extractable `CryptoKey`.
 *
 * @throws CryptoError `invalid-key` when WebCrypto refuses the export.
 */
export async function exportPublicMembers(
  subtle: SubtleCrypto,
  key: CryptoKey,
): Promise<PublicJwkMembers> {
  let jwk: JsonWebKey
  try {
    jwk = await subtle.exportKey('jwk', key)
  } catch (error) {
    throw webCryptoError(error, 'invalid-key', 'export the public part of the key')
  }
  return { kty: jwk.kty, n: jwk.n, e: jwk.e, crv: jwk.crv, x: jwk.x, y: jwk.y }
}
