import { CryptoError } from '@fhir-auth/core/essentials'
import type { OctetString } from 'asn1js'
import type * as Pkijs from 'pkijs'
import { webCryptoFailureName } from '../webcrypto-calls.js'
import { assertDecryptable } from './encryption-support.js'
import {
  parseOrFail,
  pkcs12Oids,
  type SafeSection,
  wrongPasswordWithoutMac,
} from './pfx-structure.js'

/** What the bags of a PKCS#12 file hold once decrypted. */
export interface Pkcs12Bags {
  /** Unencrypted PKCS#8 DER, from key bags and decrypted shrouded key bags. */
  readonly privateKeys: readonly Uint8Array[]
  /** DER X.509 certificates from certificate bags, in bag order. */
  readonly certificates: readonly Uint8Array[]
}

/** Input of {@link readSafeBags}. */
export interface SafeBagsInput {
  readonly pkijs: typeof Pkijs
  readonly engine: Pkijs.CryptoEngine
  readonly sections: readonly SafeSection[]
  /** The password as UTF-8 bytes (PBES2/PBKDF2 uses them as they are). */
  readonly password: ArrayBuffer
  /** True when the file had no MAC, so a decryption failure means a wrong password. */
  readonly passwordUnchecked: boolean
}

/**
 * Decrypts the safe contents and shrouded key bags (PBES2 through WebCrypto) and collects the
 * private keys and X.509 certificates. CRL and secret bags are skipped: a client needs neither.
 *
 * @throws CryptoError `pkcs12-password` when decryption fails in a file without a MAC;
 *   `pkcs12-invalid` for other decryption or structure failures.
 * @see https://www.rfc-editor.org/rfc/rfc7292#section-4.2
 */
export async function readSafeBags(input: SafeBagsInput): Promise<Pkcs12Bags> {
  const { pkijs, engine, sections, password, passwordUnchecked } = input
  const privateKeys: Uint8Array[] = []
  const certificates: Uint8Array[] = []
  const decrypt = async (encrypted: Pkijs.EncryptedContentInfo): Promise<ArrayBuffer> => {
    try {
      return await engine.decryptEncryptedContentInfo({ password, encryptedContentInfo: encrypted })
    } catch (error) {
      // A wrong password breaks the AES-CBC padding; with a MAC it was caught before this.
      if (passwordUnchecked && webCryptoFailureName(error) === 'OperationError') {
        throw wrongPasswordWithoutMac()
      }
      throw new CryptoError(
        'pkcs12-invalid',
        `a PKCS#12 bag could not be decrypted (${webCryptoFailureName(error)})`,
      )
    }
  }
  const collect = async (contents: Pkijs.SafeContents): Promise<void> => {
    for (const bag of contents.safeBags) {
      if (bag.bagId === pkcs12Oids.keyBag) {
        const info = bag.bagValue as Pkijs.PrivateKeyInfo
        privateKeys.push(new Uint8Array(info.toSchema().toBER(false)))
      } else if (bag.bagId === pkcs12Oids.shroudedKeyBag) {
        const shrouded = bag.bagValue as Pkijs.PKCS8ShroudedKeyBag
        // Bags inside encrypted contents could not be checked before decryption.
        assertDecryptable(pkijs, shrouded.encryptionAlgorithm)
        const encrypted = new pkijs.EncryptedContentInfo({
          contentType: pkcs12Oids.data,
          contentEncryptionAlgorithm: shrouded.encryptionAlgorithm,
          encryptedContent: shrouded.encryptedData,
        })
        privateKeys.push(new Uint8Array(await decrypt(encrypted)))
      } else if (bag.bagId === pkcs12Oids.certificateBag) {
        const certificate = bag.bagValue as Pkijs.CertBag
        if (certificate.certId === pkcs12Oids.x509Certificate) {
          certificates.push(
            new Uint8Array((certificate.certValue as OctetString).valueBlock.valueHexView),
          )
        }
      } else if (bag.bagId === pkcs12Oids.nestedContentsBag) {
        await collect(bag.bagValue as Pkijs.SafeContents)
      }
    }
  }
  for (const section of sections) {
    if (section.encrypted) {
      const decrypted = await decrypt(section.data.encryptedContentInfo)
      await collect(parseOrFail(() => pkijs.SafeContents.fromBER(decrypted), passwordUnchecked))
    } else {
      await collect(section.contents)
    }
  }
  return { privateKeys, certificates }
}
