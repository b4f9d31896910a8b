/** A `SignatureVerifier` on node:crypto for the test-pki tests. */
import { constants, createPublicKey, verify } from 'node:crypto'
import type { SignatureVerifier } from '@fhir-auth/core/backend'

export const nodeSignatureVerifier: SignatureVerifier = async ({
  algorithm,
  publicKeySpki,
  data,
  signature,
}) => {
  const key = createPublicKey({ key: Buffer.from(publicKeySpki), format: 'der', type: 'spki' })
  const hash = `sha${algorithm.slice(2)}`
  if (algorithm.startsWith('ES'))
    return verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature)
  if (algorithm.startsWith('PS')) {
    return verify(
      hash,
      data,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(algorithm.slice(2)) / 8 },
      signature,
    )
  }
  return verify(hash, data, key, signature)
}
