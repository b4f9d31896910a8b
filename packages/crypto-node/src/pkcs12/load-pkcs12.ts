import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto'
import { CryptoError, describeValue } from '@fhir-auth/core'
import {
  orderCertificateChain,
  type ParsedCertificate,
  parseCertificate,
} from '@fhir-auth/core/backend'
import { loadForge } from './forge-loader.js'
import { readPkcs12Bags } from './pfx-reader.js'

/** What this backend's `loadPkcs12` returns: a Node `KeyObject` and DER certificates. */
export interface NodePkcs12Contents {
  /** The private key; `importSigner` and `keyMatchesCertificate` accept it as it is. */
  readonly privateKey: KeyObject
  /** DER certificates: the one matching the key first, then its issuers in order (the `x5c`). */
  readonly certificateChain: readonly Uint8Array[]
}

/**
 * `CryptoBackend.loadPkcs12`: opens a `.p12`/`.pfx` file in the modern (PBES2 AES-256,
 * HMAC-SHA-256) or legacy (3DES / RC2, HMAC-SHA-1) encoding, RSA or EC. node-forge is loaded
 * on the first call only.
 *
 * The leaf is the certificate whose public key matches the private key; the chain is core's
 * `orderCertificateChain` (leaf, then issuers in order; certificates off that path are left
 * out), the same as every backend returns. Bag order does not matter. The password never
 * appears in messages.
 *
 * @throws CryptoError `pkcs12-password` for a wrong password or one that is not a string;
 *   `pkcs12-invalid` for input that is not a PKCS#12, has no key, no certificate, or no
 *   certificate for its key; `pkcs12-unsupported-encryption` for an encryption forge cannot
 *   decrypt.
 * @see https://www.rfc-editor.org/rfc/rfc7292
 * @internal
 */
export async function loadNodePkcs12(
  data: unknown,
  password: unknown,
): Promise<NodePkcs12Contents> {
  if (!(data instanceof Uint8Array)) {
    throw new CryptoError(
      'pkcs12-invalid',
      `expected the PKCS#12 file as a Uint8Array, got ${describeValue(data)}`,
    )
  }
  if (typeof password !== 'string') {
    // The value is left out: a wrongly typed password may still be a secret. The reason is the
    // contract's (`loadPkcs12` rejects with `pkcs12-*` only), as every backend answers.
    throw new CryptoError(
      'pkcs12-password',
      'the PKCS#12 password must be a string (use "" for none)',
    )
  }
  const forge = await loadForge()
  const bags = readPkcs12Bags(forge, data, password)
  const privateKeys = bags.privateKeys.map(readPrivateKey)
  // The DER as stored in the file is what goes into x5c, byte for byte.
  const certificates = bags.certificates.map(readCertificate)
  if (privateKeys.length === 0) {
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 file holds no private key')
  }
  if (certificates.length === 0) {
    throw new CryptoError('pkcs12-invalid', 'the PKCS#12 file holds no certificate')
  }
  for (const privateKey of privateKeys) {
    const leaf = certificates.find(({ native }) => belongsTo(native, privateKey))
    if (leaf !== undefined) {
      if (leaf.parsed === undefined) {
        throw new CryptoError(
          'pkcs12-invalid',
          'the certificate for the key in the PKCS#12 file is not one fhir-auth can read',
        )
      }
      // As in every backend, a certificate core cannot parse cannot be on the path: left out.
      const parsed = certificates.flatMap((certificate) => certificate.parsed ?? [])
      const chain = orderCertificateChain(leaf.parsed, parsed)
      return Object.freeze({
        privateKey,
        certificateChain: Object.freeze(chain.map((certificate) => certificate.der)),
      })
    }
  }
  throw new CryptoError(
    'pkcs12-invalid',
    `none of the ${certificates.length} certificates in the PKCS#12 file matches its private key`,
  )
}

function readPrivateKey(pkcs8: Uint8Array): KeyObject {
  try {
    return createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' })
  } catch {
    throw new CryptoError(
      'pkcs12-invalid',
      'the private key in the PKCS#12 file is not a PKCS#8 key node:crypto can read',
    )
  }
}

/** A certificate of the file as node:crypto reads it (to match keys) and as core parses it (to order). */
interface BagCertificate {
  readonly native: X509Certificate
  readonly parsed: ParsedCertificate | undefined
}

function readCertificate(der: Uint8Array): BagCertificate {
  try {
    return { native: new X509Certificate(der), parsed: parseOrUndefined(der) }
  } catch {
    throw new CryptoError(
      'pkcs12-invalid',
      'a certificate in the PKCS#12 file is not a readable X.509 certificate',
    )
  }
}

function belongsTo(certificate: X509Certificate, privateKey: KeyObject): boolean {
  try {
    return certificate.checkPrivateKey(privateKey)
  } catch {
    // Raised for a key of another type than the certificate's: not this certificate's key.
    return false
  }
}

function parseOrUndefined(der: Uint8Array): ParsedCertificate | undefined {
  try {
    return parseCertificate(der)
  } catch {
    return undefined
  }
}
