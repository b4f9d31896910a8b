import type { VerificationAlgorithm } from '../crypto/signature-check.js'
import { CryptoError } from '../errors/crypto-error.js'
import { type AlgorithmIdentifier, readAlgorithmIdentifier } from './algorithm-identifier.js'
import { type DerElement, readDerChildren } from './der.js'
import { derTag, expectTag, readSmallInteger } from './der-values.js'

const rsassaPss = '1.2.840.113549.1.1.10'
const maskGenerationFunction1 = '1.2.840.113549.1.1.8'

/** Signature OIDs whose parameters carry nothing we need (NULL or absent). */
const signatureAlgorithmsByOid: Readonly<Record<string, VerificationAlgorithm>> =
  /* @__PURE__ */ Object.freeze({
    '1.2.840.113549.1.1.11': 'RS256',
    '1.2.840.113549.1.1.12': 'RS384',
    '1.2.840.113549.1.1.13': 'RS512',
    '1.2.840.10045.4.3.2': 'ES256',
    '1.2.840.10045.4.3.3': 'ES384',
    '1.2.840.10045.4.3.4': 'ES512',
  })

/** SHA-2 hash OIDs, with the PSS algorithm each gives when the salt is the hash length. */
const pssByHash: Readonly<
  Record<string, { readonly algorithm: VerificationAlgorithm; readonly saltLength: number }>
> = /* @__PURE__ */ Object.freeze({
  '2.16.840.1.101.3.4.2.1': { algorithm: 'PS256', saltLength: 32 },
  '2.16.840.1.101.3.4.2.2': { algorithm: 'PS384', saltLength: 48 },
  '2.16.840.1.101.3.4.2.3': { algorithm: 'PS512', saltLength: 64 },
})

/**
 * The verification algorithm of a certificate or CRL signature: sha256/384/512WithRSAEncryption,
 * ecdsa-with-SHA256/384/512, or RSASSA-PSS with SHA-2, MGF1 with the same hash, a salt as long
 * as the hash and the standard trailer. Anything else (SHA-1, MD5, other PSS settings, EdDSA)
 * is `undefined`, which the chain policy reports as `bad-signature`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4055#section-3.1 (RSASSA-PSS parameters)
 * @see https://www.rfc-editor.org/rfc/rfc5758#section-3.2 (ECDSA)
 */
export function signatureAlgorithmOf(
  identifier: AlgorithmIdentifier,
): VerificationAlgorithm | undefined {
  if (identifier.oid !== rsassaPss) return signatureAlgorithmsByOid[identifier.oid]
  try {
    return pssAlgorithm(identifier.parameters)
  } catch (error) {
    // Unreadable PSS parameters mean we cannot verify the signature: unsupported, not malformed.
    if (error instanceof CryptoError) return undefined
    throw error
  }
}

function pssAlgorithm(parameters: DerElement | undefined): VerificationAlgorithm | undefined {
  if (parameters === undefined) return undefined
  const reason = 'invalid-certificate'
  const fields = new Map<number, DerElement>()
  for (const field of readDerChildren(
    expectTag(parameters, derTag.sequence, 'RSASSA-PSS parameters', reason),
    reason,
  )) {
    const [inner] = readDerChildren(field, reason)
    if (inner !== undefined) fields.set(field.tag, inner)
  }
  // [0] hashAlgorithm and [1] maskGenAlgorithm default to SHA-1, which we do not accept.
  const hash = fields.get(0xa0)
  const maskGeneration = fields.get(0xa1)
  if (hash === undefined || maskGeneration === undefined) return undefined
  const hashOid = readAlgorithmIdentifier(hash, 'PSS hash', reason).oid
  const mask = readAlgorithmIdentifier(maskGeneration, 'PSS mask generation', reason)
  const pss = pssByHash[hashOid]
  if (pss === undefined || mask.oid !== maskGenerationFunction1) return undefined
  if (readAlgorithmIdentifier(mask.parameters, 'MGF1 hash', reason).oid !== hashOid)
    return undefined
  const saltLength = fields.get(0xa2)
  const trailer = fields.get(0xa3)
  if (
    saltLength === undefined ||
    readSmallInteger(saltLength, 'PSS salt length', reason) !== pss.saltLength
  ) {
    return undefined
  }
  if (trailer !== undefined && readSmallInteger(trailer, 'PSS trailer', reason) !== 1) {
    return undefined
  }
  return pss.algorithm
}
