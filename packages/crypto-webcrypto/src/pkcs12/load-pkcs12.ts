import {
  encodePem,
  orderCertificateChain,
  type ParsedCertificate,
  parseCertificate,
} from '@fhir-auth/core/backend'
import { CryptoError, lazyImport, type Pkcs12Contents } from '@fhir-auth/core/essentials'
import { samePublicKey } from '../keys/public-key-match.js'
import { publicMembersOfPkcs8 } from '../keys/public-members.js'
import { verifyPasswordIntegrity } from './password-integrity.js'
import { readPfxStructure, wrongPasswordWithoutMac } from './pfx-structure.js'
import { type Pkcs12Bags, readSafeBags } from './safe-bags.js'

// pkijs is a chunk of its own in browser bundles: one that fails to load is an `HttpError`.
const pkijsModule = lazyImport(() => import('pkijs'))

/**
 * Opens a password-protected PKCS#12 file with pkijs and WebCrypto.
 *
 * Order of work: parse the PFX and refuse encryption WebCrypto cannot undo (legacy
 * PBE-SHA1-3DES/RC2: `pkcs12-unsupported-encryption`, before any password check); verify the
 * MAC (wrong password: `pkcs12-password`); decrypt the safe contents and shrouded key bags
 * (PBES2: PBKDF2 + AES-CBC); find the certificate whose public key is the private key's; order
 * the chain by issuer linkage. pkijs works with a `CryptoEngine` on the given `SubtleCrypto`,
 * passed to every call; its global engine is never set or used.
 *
 * This module is loaded with `import()` on the first `loadPkcs12` call and loads pkijs the same
 * way, so bundles that never open a PKCS#12 file contain no pkijs or asn1js code.
 *
 * @returns the key as PKCS#8 PEM (which `importSigner` takes for any algorithm the key allows)
 *   and the DER certificates, leaf first.
 * @throws CryptoError `pkcs12-invalid`, `pkcs12-password`, `pkcs12-unsupported-encryption`;
 *   `unsupported-key` for a key type other than RSA and EC P-256/384/521.
 * @see https://www.rfc-editor.org/rfc/rfc7292
 */
export async function loadPkcs12(
  subtle: SubtleCrypto,
  data: Uint8Array,
  password: string,
): Promise<Pkcs12Contents> {
  if (!(data instanceof Uint8Array)) {
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 data must be a Uint8Array')
  }
  if (typeof password !== 'string') {
    throw new CryptoError('pkcs12-password', 'the PKCS#12 password must be a string')
  }
  const pkijs = await pkijsModule()
  const engine = new pkijs.CryptoEngine({
    name: 'fhir-auth-webcrypto',
    crypto: {
      subtle,
      // Only encryption needs randomness; reading a file uses `subtle` alone.
      getRandomValues<T extends ArrayBufferView>(array: T): T {
        return globalThis.crypto.getRandomValues(array)
      },
      randomUUID: () => globalThis.crypto.randomUUID(),
    },
  })
  // The MAC key derivation takes the password as a BMPString, which pkijs builds from these
  // UTF-8 bytes; PBKDF2 takes the UTF-8 bytes as they are (what OpenSSL 3 writes).
  const passwordBytes = new TextEncoder().encode(password).buffer
  const { pfx, authenticatedContent, sections } = readPfxStructure(pkijs, data)
  await verifyPasswordIntegrity(engine, pfx, authenticatedContent, passwordBytes)
  const passwordUnchecked = pfx.macData === undefined
  const bags = await readSafeBags({
    pkijs,
    engine,
    sections,
    password: passwordBytes,
    passwordUnchecked,
  })
  try {
    return await assembleContents(subtle, bags)
  } catch (error) {
    // Without a MAC, a wrong password can decrypt to well-padded garbage (about 1 in 256).
    if (passwordUnchecked && error instanceof CryptoError && error.reason === 'invalid-key') {
      throw wrongPasswordWithoutMac()
    }
    throw error
  }
}

async function assembleContents(subtle: SubtleCrypto, bags: Pkcs12Bags): Promise<Pkcs12Contents> {
  if (bags.privateKeys.length === 0) {
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 file contains no private key')
  }
  // A certificate we cannot parse (an exotic CA, say) cannot be the key's and is left out.
  const certificates = bags.certificates.flatMap((der): ParsedCertificate[] => {
    try {
      return [parseCertificate(der)]
    } catch {
      return []
    }
  })
  if (certificates.length === 0) {
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 file contains no X.509 certificate')
  }
  for (const pkcs8 of bags.privateKeys) {
    const publicMembers = await publicMembersOfPkcs8(subtle, pkcs8)
    const leaf = certificates.find((certificate) =>
      samePublicKey(publicMembers, certificate.publicKeyJwk),
    )
    if (leaf === undefined) continue
    return Object.freeze({
      privateKey: encodePem(pkcs8, 'PRIVATE KEY'),
      certificateChain: Object.freeze(
        orderCertificateChain(leaf, certificates).map((entry) => entry.der),
      ),
    })
  }
  throw new CryptoError(
    'pkcs12-invalid',
    'the PKCS#12 file contains no certificate for its private key',
  )
}
