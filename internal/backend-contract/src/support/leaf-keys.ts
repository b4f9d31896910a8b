import type { Jwk, SigningAlgorithm } from '@fhir-auth/core'
import { type TestLeaf, testPki } from '@fhir-auth/test-pki'
import { exportJWK, importPKCS8 } from 'jose'

/** A test PKI leaf per key family, with the algorithms it can make. */
export const keyLeaves = {
  rsa: testPki.leaves['rsa-client'],
  p256: testPki.leaves['ec-p256-client'],
  p384: testPki.leaves['ec-p384-client'],
} as const satisfies Record<string, TestLeaf>

/** Each signing algorithm with a leaf whose key makes it and the profile that allows it. */
export const algorithmCases: ReadonlyArray<{
  readonly algorithm: SigningAlgorithm
  readonly leaf: TestLeaf
  readonly profile: 'smart' | 'udap'
  /** JOSE signature length: 256 for RSA 2048, r‖s 64 for P-256 and 96 for P-384. */
  readonly signatureLength: number
}> = [
  { algorithm: 'RS256', leaf: keyLeaves.rsa, profile: 'udap', signatureLength: 256 },
  { algorithm: 'RS384', leaf: keyLeaves.rsa, profile: 'smart', signatureLength: 256 },
  { algorithm: 'ES256', leaf: keyLeaves.p256, profile: 'udap', signatureLength: 64 },
  { algorithm: 'ES384', leaf: keyLeaves.p384, profile: 'smart', signatureLength: 96 },
]

/**
 * The leaf's private key as a JWK, made with jose (WebCrypto) from the PKCS#8 PEM, so it works
 * in every runtime. Keys are imported, never freshly generated, before a JWK export: Node 20
 * can deadlock exporting a just-generated EC key as JWK.
 */
export async function privateJwkOf(leaf: TestLeaf, algorithm: SigningAlgorithm): Promise<Jwk> {
  const key = await importPKCS8(leaf.privateKeyPkcs8Pem, algorithm, { extractable: true })
  const { kty, crv, x, y, d, n, e, p, q, dp, dq, qi } = await exportJWK(key)
  // Only key members: `alg`/`key_ops` from the export would tie the key to one algorithm.
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, d, n, e, p, q, dp, dq, qi }).filter(
      ([, value]) => value !== undefined,
    ),
  ) as Jwk
}
