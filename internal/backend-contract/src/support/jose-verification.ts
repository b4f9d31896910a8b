import type { JsonObject, JwsSigner, SigningAlgorithm } from '@fhir-auth/core'
import { signCompactJws } from '@fhir-auth/core/jws'
import { compactVerify, importX509 } from 'jose'
import { expect } from 'vitest'

/** Claims the suite signs: the shape of a client assertion, with fixed values. */
export const sampleClaims: JsonObject = Object.freeze({
  iss: 'https://client.example.test/app',
  sub: 'https://client.example.test/app',
  aud: 'https://server.example.test/token',
  exp: 1_900_000_000,
  iat: 1_899_999_700,
  jti: 'contract-suite-jti',
})

/**
 * Signs the sample claims with `signer` through core's JWS assembly and verifies the result
 * with jose against the certificate, independently of the backend under test.
 */
export async function signAndVerifyWithJose(
  signer: JwsSigner,
  certificatePem: string,
  expectedAlgorithm: SigningAlgorithm,
): Promise<void> {
  expect(signer.alg).toBe(expectedAlgorithm)
  const jws = await signCompactJws({ typ: 'JWT' }, sampleClaims, signer)
  const key = await importX509(certificatePem, expectedAlgorithm)
  const { payload, protectedHeader } = await compactVerify(jws, key, {
    algorithms: [expectedAlgorithm],
  })
  expect(protectedHeader.alg).toBe(expectedAlgorithm)
  expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(sampleClaims)
}
