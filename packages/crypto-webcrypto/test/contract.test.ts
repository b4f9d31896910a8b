import { describeBackendContract, type ExtraKeyFormSource } from '@fhir-auth/backend-contract'
import { decodePemBlocks } from '@fhir-auth/core/backend'
import { createWebCryptoBackend } from '../src/index.js'

/** WebCrypto parameters for a contract key; RSA keys are bound to the hash of the algorithm. */
function importParameters(source: ExtraKeyFormSource): RsaHashedImportParams | EcKeyImportParams {
  if (source.keyType === 'p256') return { name: 'ECDSA', namedCurve: 'P-256' }
  if (source.keyType === 'p384') return { name: 'ECDSA', namedCurve: 'P-384' }
  return { name: 'RSASSA-PKCS1-v1_5', hash: source.algorithm === 'RS384' ? 'SHA-384' : 'SHA-256' }
}

describeBackendContract('webcrypto', () => createWebCryptoBackend(), {
  // WebCrypto has no 3DES/RC2: legacy files must fail with pkcs12-unsupported-encryption.
  legacyPkcs12: 'unsupported',
  extraKeyForms: [
    {
      name: 'non-extractable CryptoKey',
      async create(source) {
        const [pkcs8] = decodePemBlocks(source.pkcs8Pem, 'PRIVATE KEY')
        if (pkcs8 === undefined) throw new Error('the contract key is not PKCS#8 PEM')
        return crypto.subtle.importKey('pkcs8', pkcs8.slice(), importParameters(source), false, [
          'sign',
        ])
      },
    },
  ],
})
