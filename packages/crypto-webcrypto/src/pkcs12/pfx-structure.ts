import { CryptoError } from '@fhir-auth/core/essentials'
import type { OctetString } from 'asn1js'
import type * as Pkijs from 'pkijs'
import { bufferSource } from '../webcrypto-calls.js'
import { assertDecryptable, unsupportedEncryption } from './encryption-support.js'

/** Object identifiers of the PKCS#12 and PKCS#7 structures we read (RFC 7292 §4, appendix D). */
export const pkcs12Oids = Object.freeze({
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certificateBag: '1.2.840.113549.1.12.10.1.3',
  nestedContentsBag: '1.2.840.113549.1.12.10.1.6',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
})

/** The outer structure of a PKCS#12 file, parsed, nothing decrypted. */
export interface PfxStructure {
  readonly pfx: Pkijs.PFX
  /** The bytes the MAC covers: the content of the AuthenticatedSafe's `data` ContentInfo. */
  readonly authenticatedContent: ArrayBuffer
  readonly sections: readonly SafeSection[]
}

/**
 * One ContentInfo of the AuthenticatedSafe. Each is parsed exactly once: pkijs parsing consumes
 * the ASN.1 object it reads from, so a second parse of the same schema fails.
 */
export type SafeSection =
  | { readonly encrypted: false; readonly contents: Pkijs.SafeContents }
  | { readonly encrypted: true; readonly data: Pkijs.EncryptedData }

/**
 * Parses a PKCS#12 file down to its safe contents and refuses encryption WebCrypto cannot undo
 * before anything is decrypted, so a legacy file is reported as such whatever the password.
 *
 * @throws CryptoError `pkcs12-invalid` for data that is not PKCS#12;
 *   `pkcs12-unsupported-encryption` for legacy password encryption or public-key modes.
 * @see https://www.rfc-editor.org/rfc/rfc7292#section-4
 */
export function readPfxStructure(pkijs: typeof Pkijs, data: Uint8Array): PfxStructure {
  let pfx: Pkijs.PFX
  try {
    pfx = pkijs.PFX.fromBER(bufferSource(data))
  } catch {
    throw notPkcs12()
  }
  if (pfx.authSafe.contentType !== pkcs12Oids.data) {
    // Public-key integrity mode (signedData) protects with a certificate, not a password.
    throw unsupportedEncryption('public-key integrity protection (signedData)')
  }
  let authenticatedContent: ArrayBuffer
  let authenticatedSafe: Pkijs.AuthenticatedSafe
  try {
    authenticatedContent = (pfx.authSafe.content as OctetString).getValue()
    authenticatedSafe = pkijs.AuthenticatedSafe.fromBER(authenticatedContent)
  } catch {
    throw notPkcs12()
  }
  const sections = authenticatedSafe.safeContents.map((content): SafeSection => {
    if (content.contentType === pkcs12Oids.encryptedData) {
      const encrypted = parseOrFail(() => new pkijs.EncryptedData({ schema: content.content }))
      assertDecryptable(pkijs, encrypted.encryptedContentInfo.contentEncryptionAlgorithm)
      return { encrypted: true, data: encrypted }
    }
    if (content.contentType === pkcs12Oids.data) {
      const contents = parseOrFail(() =>
        pkijs.SafeContents.fromBER((content.content as OctetString).getValue()),
      )
      for (const bag of contents.safeBags) checkShroudedKeys(pkijs, bag)
      return { encrypted: false, contents }
    }
    throw unsupportedEncryption(
      `public-key privacy protection (content type ${content.contentType})`,
    )
  })
  return { pfx, authenticatedContent, sections }
}

function checkShroudedKeys(pkijs: typeof Pkijs, bag: Pkijs.SafeBag): void {
  if (bag.bagId === pkcs12Oids.shroudedKeyBag) {
    assertDecryptable(pkijs, (bag.bagValue as Pkijs.PKCS8ShroudedKeyBag).encryptionAlgorithm)
  } else if (bag.bagId === pkcs12Oids.nestedContentsBag) {
    for (const inner of (bag.bagValue as Pkijs.SafeContents).safeBags) {
      checkShroudedKeys(pkijs, inner)
    }
  }
}

/**
 * Runs a pkijs parse, turning its exceptions into a typed error. When no MAC vouched for the
 * password, garbage after decryption most likely means a wrong password, so it says that.
 *
 * @throws CryptoError `pkcs12-password` (password unchecked) or `pkcs12-invalid`.
 */
export function parseOrFail<T>(parse: () => T, passwordUnchecked = false): T {
  try {
    return parse()
  } catch {
    if (passwordUnchecked) throw wrongPasswordWithoutMac()
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 file has a malformed bag structure')
  }
}

/** The error for a decryption that went wrong in a file without a MAC. */
export function wrongPasswordWithoutMac(): CryptoError {
  return new CryptoError(
    'pkcs12-password',
    'wrong PKCS#12 password (decryption gave no valid data)',
  )
}

function notPkcs12(): CryptoError {
  return new CryptoError('pkcs12-invalid', 'the data is not a DER-encoded PKCS#12 (PFX) file')
}
