import { CryptoError } from '@fhir-auth/core/essentials'
import type { AlgorithmIdentifier as PkijsAlgorithmIdentifier } from 'pkijs'

/** The pkijs classes this check uses, passed in because pkijs is loaded lazily. */
export interface Pbes2Classes {
  readonly PBES2Params: typeof import('pkijs').PBES2Params
  readonly PBKDF2Params: typeof import('pkijs').PBKDF2Params
}

const pbes2 = '1.2.840.113549.1.5.13'
const pbkdf2 = '1.2.840.113549.1.5.12'

/** PBKDF2 pseudo-random functions WebCrypto has (HMAC-SHA-1 is the default when absent). */
const supportedPseudoRandomFunctions = new Set([
  '1.2.840.113549.2.7', // hmacWithSHA1
  '1.2.840.113549.2.9', // hmacWithSHA256
  '1.2.840.113549.2.10', // hmacWithSHA384
  '1.2.840.113549.2.11', // hmacWithSHA512
])

/** AES-CBC with 128, 192 and 256-bit keys: the PBES2 ciphers WebCrypto can run. */
const supportedCiphers = new Set([
  '2.16.840.1.101.3.4.1.2',
  '2.16.840.1.101.3.4.1.22',
  '2.16.840.1.101.3.4.1.42',
])

/** Names of the legacy schemes, so the error says what the file uses. */
const legacySchemeNames: Readonly<Record<string, string>> = Object.freeze({
  '1.2.840.113549.1.12.1.1': 'pbeWithSHAAnd128BitRC4',
  '1.2.840.113549.1.12.1.2': 'pbeWithSHAAnd40BitRC4',
  '1.2.840.113549.1.12.1.3': 'pbeWithSHAAnd3-KeyTripleDES-CBC',
  '1.2.840.113549.1.12.1.4': 'pbeWithSHAAnd2-KeyTripleDES-CBC',
  '1.2.840.113549.1.12.1.5': 'pbeWithSHAAnd128BitRC2-CBC',
  '1.2.840.113549.1.12.1.6': 'pbeWithSHAAnd40BitRC2-CBC',
  '1.2.840.113549.1.5.3': 'pbeWithMD5AndDES-CBC',
  '1.2.840.113549.1.5.10': 'pbeWithSHA1AndDES-CBC',
})

/** MAC digests of PKCS#12 integrity (pkijs derives the MAC key in JavaScript for these). */
export const macDigestNames: Readonly<Record<string, string>> = Object.freeze({
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
})

/**
 * The error for PKCS#12 protection WebCrypto cannot undo. The message names the scheme and the
 * two ways out, so the user knows what to do without reading the file themselves.
 */
export function unsupportedEncryption(scheme: string): CryptoError {
  return new CryptoError(
    'pkcs12-unsupported-encryption',
    `this PKCS#12 file uses ${scheme}, which WebCrypto cannot decrypt (it has no 3DES or RC2); re-export it with AES, e.g. "openssl pkcs12 -export -keypbe AES-256-CBC -certpbe AES-256-CBC -macalg sha256", or load it with @fhir-auth/crypto-node`,
  )
}

/**
 * Checks that an encryption AlgorithmIdentifier (of an EncryptedData or a shrouded key bag) is
 * PBES2 with PBKDF2 (HMAC-SHA-1/256/384/512) and AES-CBC, the only password encryption
 * WebCrypto can decrypt. This runs before any decryption, so a legacy file is reported as
 * such whatever the password.
 *
 * @throws CryptoError `pkcs12-unsupported-encryption` naming the scheme otherwise;
 *   `pkcs12-invalid` when the PBES2 parameters are malformed.
 * @see https://www.rfc-editor.org/rfc/rfc8018#appendix-A.4
 * @see https://www.rfc-editor.org/rfc/rfc7292#appendix-C
 */
export function assertDecryptable(
  classes: Pbes2Classes,
  algorithm: PkijsAlgorithmIdentifier,
): void {
  const oid = algorithm.algorithmId
  if (oid !== pbes2) throw unsupportedEncryption(legacySchemeNames[oid] ?? `the scheme ${oid}`)
  let keyDerivation: string
  let pseudoRandomFunction: string | undefined
  let cipher: string
  try {
    const parameters = new classes.PBES2Params({ schema: algorithm.algorithmParams })
    keyDerivation = parameters.keyDerivationFunc.algorithmId
    cipher = parameters.encryptionScheme.algorithmId
    if (keyDerivation === pbkdf2) {
      const derivation = new classes.PBKDF2Params({
        schema: parameters.keyDerivationFunc.algorithmParams,
      })
      pseudoRandomFunction = derivation.prf?.algorithmId
    }
  } catch {
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 file has malformed PBES2 parameters')
  }
  if (keyDerivation !== pbkdf2)
    throw unsupportedEncryption(`PBES2 with key derivation ${keyDerivation}`)
  if (
    pseudoRandomFunction !== undefined &&
    !supportedPseudoRandomFunctions.has(pseudoRandomFunction)
  ) {
    throw unsupportedEncryption(`PBKDF2 with the pseudo-random function ${pseudoRandomFunction}`)
  }
  if (!supportedCiphers.has(cipher)) throw unsupportedEncryption(`PBES2 with the cipher ${cipher}`)
}
