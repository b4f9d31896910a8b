import { CryptoError } from '@fhir-auth/core/essentials'
import type * as Pkijs from 'pkijs'
import { webCryptoFailureName } from '../webcrypto-calls.js'
import { macDigestNames, unsupportedEncryption } from './encryption-support.js'

/**
 * Checks the PKCS#12 MAC with the password: the one check that tells a wrong password from a
 * damaged file before any decryption. pkijs derives the MAC key (RFC 7292 appendix B, password
 * as BMPString) and WebCrypto computes the HMAC.
 *
 * A file without a MAC (`openssl pkcs12 -nomac`) passes; a wrong password then shows up as a
 * decryption failure.
 *
 * @throws CryptoError `pkcs12-password` when the MAC does not verify;
 *   `pkcs12-unsupported-encryption` for a MAC digest other than SHA-1/256/384/512.
 * @see https://www.rfc-editor.org/rfc/rfc7292#section-5.1
 */
export async function verifyPasswordIntegrity(
  engine: Pkijs.CryptoEngine,
  pfx: Pkijs.PFX,
  authenticatedContent: ArrayBuffer,
  password: ArrayBuffer,
): Promise<void> {
  const macData = pfx.macData
  if (macData === undefined) return
  const digestOid = macData.mac.digestAlgorithm.algorithmId
  const digest = macDigestNames[digestOid]
  if (digest === undefined) throw unsupportedEncryption(`a MAC with digest ${digestOid}`)
  let verified: boolean
  try {
    verified = await engine.verifyDataStampedWithPassword({
      password,
      hashAlgorithm: digest,
      salt: new Uint8Array(macData.macSalt.valueBlock.valueHexView).buffer,
      iterationCount: macData.iterations ?? 1,
      contentToVerify: authenticatedContent,
      signatureToVerify: new Uint8Array(macData.mac.digest.valueBlock.valueHexView).buffer,
    })
  } catch (error) {
    throw new CryptoError(
      'pkcs12-invalid',
      `the PKCS#12 MAC could not be checked (${webCryptoFailureName(error)})`,
    )
  }
  if (!verified) {
    throw new CryptoError(
      'pkcs12-password',
      'wrong PKCS#12 password, or the file is corrupted (its MAC does not verify)',
    )
  }
}
