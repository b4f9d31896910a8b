import { CryptoError } from '@fhir-auth/core'
import type { ForgeApi, ForgeAsn1 } from './forge-api.js'
import { asn1Tag, childrenOf, objectIdentifier } from './forge-asn1.js'
import { decryptableSchemes, pkcs12Oids, undecryptableSchemes } from './object-identifiers.js'
import type { Pkcs12Password } from './password-integrity.js'

/**
 * Decrypts one password-encrypted PKCS#12 part (an `EncryptedData` content or a shrouded key
 * bag) with node-forge: PBES2 (AES-CBC or 3DES with PBKDF2, the OpenSSL 3 default) and the
 * legacy PKCS#12 PBE schemes 3DES and 40-bit RC2 (OpenSSL 1.x, Windows, .NET). WebCrypto has
 * no 3DES, which is why this backend carries forge at all.
 *
 * The password is passed the way each scheme defines it: PBES2 derives from its UTF-8 bytes
 * (RFC 8018), PKCS#12 PBE from a BMPString (RFC 7292 appendix B), so non-ASCII passwords work.
 *
 * Returns `undefined` when the decrypted padding is wrong, which almost always means a wrong
 * password; the caller decides, knowing whether a MAC already vouched for the password.
 *
 * @throws CryptoError `pkcs12-unsupported-encryption` for a scheme, cipher or PRF forge cannot
 *   decrypt; `pkcs12-invalid` for a malformed AlgorithmIdentifier.
 * @see https://www.rfc-editor.org/rfc/rfc7292#appendix-C
 * @internal
 */
export function decryptPasswordProtected(
  forge: ForgeApi,
  algorithmIdentifier: ForgeAsn1,
  encrypted: string,
  password: Pkcs12Password,
): string | undefined {
  const [oidElement, parameters] = childrenOf(
    algorithmIdentifier,
    asn1Tag.sequence,
    'encryption AlgorithmIdentifier',
  )
  const oid = objectIdentifier(forge, oidElement, 'encryption algorithm')
  if (!decryptableSchemes.has(oid) || parameters === undefined) {
    const name = undecryptableSchemes.get(oid) ?? oid
    throw new CryptoError(
      'pkcs12-unsupported-encryption',
      `the PKCS#12 is encrypted with ${name}, which this backend cannot decrypt; re-export it with AES-256 (PBES2)`,
    )
  }
  const schemePassword =
    oid === pkcs12Oids.pbes2 ? Buffer.from(password ?? '', 'utf8').toString('latin1') : password
  let cipher: ReturnType<ForgeApi['pki']['pbe']['getCipher']>
  try {
    cipher = forge.pki.pbe.getCipher(oid, parameters, schemePassword)
  } catch (error) {
    // forge's messages name the unsupported PRF, KDF or cipher and hold no secret.
    const detail = error instanceof Error ? `: ${error.message}` : ''
    throw new CryptoError(
      'pkcs12-unsupported-encryption',
      `the PKCS#12 ${decryptableSchemes.get(oid)} parameters are not supported${detail}`,
    )
  }
  cipher.update(forge.util.createBuffer(encrypted))
  if (!cipher.finish()) return undefined
  return cipher.output.getBytes()
}
