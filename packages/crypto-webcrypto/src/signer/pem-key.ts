import { describePrivateKeyPem } from '@fhir-auth/core/private-keys'
import type { KeyMaterial } from './import-signer.js'

// Re-exported for bundlers, as `webcrypto-failure` explains: this chunk then reaches core's
// entries as the backend's other chunks do.
export { CryptoError } from '@fhir-auth/core'
export { lazy } from '@fhir-auth/core/internal'

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
