import { type KeyObject, sign } from 'node:crypto'
import { encodeDer, encodeDerOid, encodeDerSequence } from './der-builders.js'
import type { KeyType } from './key-pair.js'

/** OID and hash of the signature algorithm each issuer key type uses. */
const signatureAlgorithms: Readonly<
  Record<KeyType, { readonly oid: string; readonly hash: string }>
> = {
  rsa2048: { oid: '1.2.840.113549.1.1.11', hash: 'sha256' },
  rsa3072: { oid: '1.2.840.113549.1.1.11', hash: 'sha256' },
  rsa4096: { oid: '1.2.840.113549.1.1.11', hash: 'sha256' },
  p256: { oid: '1.2.840.10045.4.3.2', hash: 'sha256' },
  p384: { oid: '1.2.840.10045.4.3.3', hash: 'sha384' },
}

/**
 * The AlgorithmIdentifier an issuer key signs with: sha256WithRSAEncryption (parameters NULL)
 * for RSA, ecdsa-with-SHA256 for P-256 and ecdsa-with-SHA384 for P-384 (no parameters).
 */
export function signatureAlgorithmIdentifier(keyType: KeyType): Uint8Array {
  const { oid } = signatureAlgorithms[keyType]
  return keyType.startsWith('rsa')
    ? encodeDerSequence(encodeDerOid(oid), encodeDer(0x05, new Uint8Array()))
    : encodeDerSequence(encodeDerOid(oid))
}

/** Signs TBS bytes; ECDSA signatures come back in X.509's DER form. */
export function signTbs(keyType: KeyType, privateKey: KeyObject, tbs: Uint8Array): Uint8Array {
  return new Uint8Array(sign(signatureAlgorithms[keyType].hash, tbs, privateKey))
}

/** Flips the last signature byte so the signature no longer verifies but the DER stays valid. */
export function corruptLastByte(der: Uint8Array): Uint8Array {
  const copy = new Uint8Array(der)
  copy[copy.length - 1] = (copy[copy.length - 1] as number) ^ 0x01
  return copy
}
