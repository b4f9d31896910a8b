import { createHmac, timingSafeEqual } from 'node:crypto'
import { CryptoError } from '@fhir-auth/core'
import { binaryStringToBytes } from './binary-string.js'
import type { ForgeApi, ForgeAsn1 } from './forge-api.js'
import {
  asn1Tag,
  childrenOf,
  objectIdentifier,
  octetStringBytes,
  smallInteger,
} from './forge-asn1.js'
import { macDigests, pkcs12Oids } from './object-identifiers.js'

/**
 * The password as the PKCS#12 key derivation takes it: forge turns a string into a
 * NUL-terminated BMPString; `null` is the empty byte string, which some tools (and OpenSSL when
 * it reads) use for an empty password.
 */
export type Pkcs12Password = string | null

/**
 * Checks the PFX `MacData` (RFC 7292 §4, password integrity mode) over the authenticated safe
 * and returns the form of the password that verified it, so decryption uses the same form.
 * The HMAC runs natively; only the RFC 7292 key derivation is forge's.
 *
 * @throws CryptoError `pkcs12-password` when the MAC does not verify (wrong password or a
 *   corrupted file), `pkcs12-unsupported-encryption` for PBMAC1 or an unknown MAC digest,
 *   `pkcs12-invalid` for a malformed `MacData`.
 * @see https://www.rfc-editor.org/rfc/rfc7292#appendix-B
 * @internal
 */
export function verifyPkcs12Mac(
  forge: ForgeApi,
  macData: ForgeAsn1,
  authenticatedSafe: string,
  password: string,
): Pkcs12Password {
  const [digestInfo, saltElement, iterationsElement] = childrenOf(
    macData,
    asn1Tag.sequence,
    'MacData',
  )
  const [algorithm, digestElement] = childrenOf(digestInfo, asn1Tag.sequence, 'MacData.mac')
  const [algorithmOid] = childrenOf(algorithm, asn1Tag.sequence, 'MacData.mac.digestAlgorithm')
  const oid = objectIdentifier(forge, algorithmOid, 'MacData digest algorithm')
  const digestName = macDigests.get(oid)
  if (digestName === undefined) {
    throw new CryptoError(
      'pkcs12-unsupported-encryption',
      oid === pkcs12Oids.pbmac1
        ? 'the PKCS#12 uses PBMAC1 integrity, which this backend cannot check; re-export it with an HMAC-SHA-256 MAC'
        : `the PKCS#12 MAC uses digest ${oid}, which this backend does not support`,
    )
  }
  const expected = binaryStringToBytes(octetStringBytes(digestElement, 'MacData digest'))
  const salt = octetStringBytes(saltElement, 'MacData salt')
  // RFC 7292: iterations DEFAULT 1.
  const iterations =
    iterationsElement === undefined ? 1 : smallInteger(iterationsElement, 'MacData iterations')
  const content = binaryStringToBytes(authenticatedSafe)
  const candidates: Pkcs12Password[] = password === '' ? ['', null] : [password]
  for (const candidate of candidates) {
    const digest = forge.md[digestName].create()
    const macKey = forge.pkcs12.generateKey(
      candidate,
      forge.util.createBuffer(salt),
      3,
      iterations,
      digest.digestLength,
      digest,
    )
    const actual = createHmac(digestName, binaryStringToBytes(macKey.getBytes()))
      .update(content)
      .digest()
    if (actual.length === expected.length && timingSafeEqual(actual, expected)) return candidate
  }
  throw new CryptoError(
    'pkcs12-password',
    'the PKCS#12 MAC does not verify: the password is wrong or the file is corrupted',
  )
}
