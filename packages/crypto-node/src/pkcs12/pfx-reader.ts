import { CryptoError } from '@fhir-auth/core'
import { binaryStringToBytes, bytesToBinaryString } from './binary-string.js'
import { decryptPasswordProtected } from './decryption.js'
import type { ForgeApi, ForgeAsn1 } from './forge-api.js'
import {
  asn1Tag,
  childrenOf,
  explicitContent,
  malformed,
  objectIdentifier,
  octetStringBytes,
  parseBer,
  smallInteger,
} from './forge-asn1.js'
import { pkcs12Oids } from './object-identifiers.js'
import { type Pkcs12Password, verifyPkcs12Mac } from './password-integrity.js'

/** The raw contents of a PKCS#12 file, in bag order. */
export interface Pkcs12Bags {
  /** PKCS#8 PrivateKeyInfo DER of every key bag (shrouded ones decrypted). */
  readonly privateKeys: readonly Uint8Array[]
  /** DER of every X.509 certificate bag, exactly as stored. */
  readonly certificates: readonly Uint8Array[]
}

interface ReaderContext {
  readonly forge: ForgeApi
  readonly password: Pkcs12Password
  /** True when a MAC verified the password, so a failed decryption means corruption. */
  readonly passwordVerified: boolean
  readonly privateKeys: Uint8Array[]
  readonly certificates: Uint8Array[]
}

/**
 * Walks a PFX (RFC 7292) and returns its keys and certificates as DER.
 *
 * node-forge's own `pkcs12FromAsn1` turns bags into forge objects, which do not exist for EC
 * keys and certificates, and re-encodes RSA certificates from parsed fields. Walking the
 * structure here keeps every certificate byte for byte and every key as PKCS#8 for
 * `node:crypto`, whatever its type; forge does the BER parsing, the RFC 7292 key derivation
 * and the decryption.
 *
 * @throws CryptoError `pkcs12-invalid` when the bytes are not a password-integrity PFX;
 *   `pkcs12-password` for a wrong password (MAC mismatch, or a failed decryption when there is
 *   no MAC); `pkcs12-unsupported-encryption` for schemes forge cannot decrypt.
 * @see https://www.rfc-editor.org/rfc/rfc7292#section-4
 * @internal
 */
export function readPkcs12Bags(forge: ForgeApi, data: Uint8Array, password: string): Pkcs12Bags {
  const pfx = parseBer(forge, bytesToBinaryString(data), 'the file')
  const [versionElement, authSafe, macData] = childrenOf(pfx, asn1Tag.sequence, 'PFX')
  if (smallInteger(versionElement, 'PFX version') !== 3) throw malformed('PFX version is not 3')
  const [contentType, content] = childrenOf(authSafe, asn1Tag.sequence, 'authSafe')
  const authSafeType = objectIdentifier(forge, contentType, 'authSafe content type')
  if (authSafeType !== pkcs12Oids.data) {
    throw new CryptoError(
      'pkcs12-invalid',
      authSafeType === pkcs12Oids.signedData
        ? 'the PKCS#12 uses public-key integrity mode; only password integrity is supported'
        : `the PKCS#12 authSafe has content type ${authSafeType}, expected data`,
    )
  }
  const authenticatedSafe = octetStringBytes(explicitContent(content, 'authSafe'), 'authSafe data')
  const verifiedPassword =
    macData === undefined ? undefined : verifyPkcs12Mac(forge, macData, authenticatedSafe, password)
  const context: ReaderContext = {
    forge,
    password: verifiedPassword === undefined ? password : verifiedPassword,
    passwordVerified: verifiedPassword !== undefined,
    privateKeys: [],
    certificates: [],
  }
  const contentInfos = childrenOf(
    parseBer(forge, authenticatedSafe, 'AuthenticatedSafe'),
    asn1Tag.sequence,
    'AuthenticatedSafe',
  )
  for (const contentInfo of contentInfos) readContentInfo(context, contentInfo)
  return { privateKeys: context.privateKeys, certificates: context.certificates }
}

function readContentInfo(context: ReaderContext, contentInfo: ForgeAsn1): void {
  const { forge } = context
  const [contentType, content] = childrenOf(contentInfo, asn1Tag.sequence, 'ContentInfo')
  const type = objectIdentifier(forge, contentType, 'ContentInfo content type')
  if (type === pkcs12Oids.data) {
    const safeContents = octetStringBytes(explicitContent(content, 'ContentInfo'), 'SafeContents')
    readSafeContents(context, parseBer(forge, safeContents, 'SafeContents'))
    return
  }
  if (type === pkcs12Oids.encryptedData) {
    readEncryptedData(context, explicitContent(content, 'ContentInfo'))
    return
  }
  throw new CryptoError(
    'pkcs12-unsupported-encryption',
    type === pkcs12Oids.envelopedData
      ? 'the PKCS#12 uses public-key privacy mode (EnvelopedData); only password privacy is supported'
      : `the PKCS#12 holds content of type ${type}, which this backend cannot read`,
  )
}

function readEncryptedData(context: ReaderContext, encryptedData: ForgeAsn1): void {
  const [, encryptedContentInfo] = childrenOf(encryptedData, asn1Tag.sequence, 'EncryptedData')
  const [, algorithm, encryptedContent] = childrenOf(
    encryptedContentInfo,
    asn1Tag.sequence,
    'EncryptedContentInfo',
  )
  if (algorithm === undefined || encryptedContent === undefined) {
    throw malformed('EncryptedContentInfo has no algorithm or content')
  }
  const decrypted = decryptPasswordProtected(
    context.forge,
    algorithm,
    implicitOctetString(encryptedContent),
    context.password,
  )
  const safeContents = decrypted === undefined ? undefined : tryParseBer(context.forge, decrypted)
  if (safeContents === undefined) throw decryptionFailure(context, 'certificates')
  readSafeContents(context, safeContents)
}

/**
 * `encryptedContent [0] IMPLICIT OCTET STRING`: primitive, or constructed from OCTET STRING
 * chunks in BER.
 */
function implicitOctetString(element: ForgeAsn1): string {
  if (typeof element.value === 'string') return element.value
  return element.value.map((chunk) => octetStringBytes(chunk, 'encrypted content')).join('')
}

function readSafeContents(context: ReaderContext, safeContents: ForgeAsn1): void {
  for (const safeBag of childrenOf(safeContents, asn1Tag.sequence, 'SafeContents')) {
    const [bagId, bagValue] = childrenOf(safeBag, asn1Tag.sequence, 'SafeBag')
    const type = objectIdentifier(context.forge, bagId, 'SafeBag type')
    const value = explicitContent(bagValue, 'SafeBag')
    if (type === pkcs12Oids.keyBag) {
      context.privateKeys.push(binaryStringToBytes(context.forge.asn1.toDer(value).getBytes()))
    } else if (type === pkcs12Oids.pkcs8ShroudedKeyBag) {
      context.privateKeys.push(readShroudedKey(context, value))
    } else if (type === pkcs12Oids.certBag) {
      readCertificateBag(context, value)
    } else if (type === pkcs12Oids.safeContentsBag) {
      readSafeContents(context, value)
    }
    // CRL and secret bags carry nothing a client needs; they are skipped, not refused.
  }
}

function readShroudedKey(context: ReaderContext, encryptedPrivateKeyInfo: ForgeAsn1): Uint8Array {
  const [algorithm, encryptedData] = childrenOf(
    encryptedPrivateKeyInfo,
    asn1Tag.sequence,
    'EncryptedPrivateKeyInfo',
  )
  if (algorithm === undefined) throw malformed('EncryptedPrivateKeyInfo has no algorithm')
  const decrypted = decryptPasswordProtected(
    context.forge,
    algorithm,
    octetStringBytes(encryptedData, 'encrypted private key'),
    context.password,
  )
  if (decrypted === undefined || tryParseBer(context.forge, decrypted) === undefined) {
    throw decryptionFailure(context, 'private key')
  }
  return binaryStringToBytes(decrypted)
}

function readCertificateBag(context: ReaderContext, certBag: ForgeAsn1): void {
  const [certId, certValue] = childrenOf(certBag, asn1Tag.sequence, 'CertBag')
  // SDSI certificates (the only other kind RFC 7292 defines) are not X.509: skipped.
  if (objectIdentifier(context.forge, certId, 'CertBag type') !== pkcs12Oids.x509Certificate) return
  const der = octetStringBytes(explicitContent(certValue, 'CertBag'), 'X.509 certificate')
  context.certificates.push(binaryStringToBytes(der))
}

function tryParseBer(forge: ForgeApi, bytes: string): ForgeAsn1 | undefined {
  try {
    return parseBer(forge, bytes, 'decrypted content')
  } catch {
    return undefined
  }
}

function decryptionFailure(context: ReaderContext, what: string): CryptoError {
  return context.passwordVerified
    ? new CryptoError(
        'pkcs12-invalid',
        `the PKCS#12 ${what} could not be decrypted although the password is right; the file is corrupted`,
      )
    : new CryptoError(
        'pkcs12-password',
        `the PKCS#12 ${what} could not be decrypted: the password is wrong or the file is corrupted`,
      )
}
