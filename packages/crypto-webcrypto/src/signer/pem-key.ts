import { describePrivateKeyPem } from '@fhir-auth/core/private-keys'
import type { KeyMaterial } from './key-material.js'

/**
 * The error class {@link readPemKey} throws, re-exported from core's main entry on purpose
 * (ADR 0012): this chunk then reaches that entry as the backend's other chunks do, so a bundler
 * keeps core's files in one shared chunk instead of splitting off the error classes and base64
 * into a small chunk that every app would fetch up front.
 */
export { CryptoError } from '@fhir-auth/core/essentials'

/**
 * The key material of a PEM key (PKCS#8, PKCS#1 RSA or SEC1 EC), read by core's DER code: a
 * chunk of its own, loaded by `importSigner` only when a key comes as PEM.
 *
 * @throws CryptoError `invalid-key` / `unsupported-key` for PEM core cannot read.
 */
export function readPemKey(pem: string): KeyMaterial {
  const description = describePrivateKeyPem(pem)
  return { format: 'pkcs8', keyData: description.pkcs8, description }
}
