import { createPrivateKey, webcrypto } from 'node:crypto'
import { describeBackendContract, type ExtraKeyFormSource } from '@fhir-auth/backend-contract'
import { createNodeCryptoBackend } from '../src/index.js'

/** The key as a non-extractable WebCrypto key, imported for the algorithm the suite asks for. */
async function cryptoKeyFor(source: ExtraKeyFormSource): Promise<webcrypto.CryptoKey> {
  const pkcs8 = createPrivateKey(source.pkcs8Pem).export({ format: 'der', type: 'pkcs8' })
  const algorithm =
    source.keyType === 'rsa2048'
      ? { name: 'RSASSA-PKCS1-v1_5', hash: source.algorithm === 'RS256' ? 'SHA-256' : 'SHA-384' }
      : { name: 'ECDSA', namedCurve: source.keyType === 'p256' ? 'P-256' : 'P-384' }
  return webcrypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign'])
}

describeBackendContract('node', () => createNodeCryptoBackend(), {
  legacyPkcs12: 'supported',
  extraKeyForms: [
    { name: 'KeyObject', create: (source) => createPrivateKey(source.pkcs8Pem) },
    { name: 'CryptoKey', create: cryptoKeyFor },
  ],
})
