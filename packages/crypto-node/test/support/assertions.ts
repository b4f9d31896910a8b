import {
  base64UrlDecode,
  ConfigurationError,
  CryptoError,
  FhirAuthError,
  type Jwk,
  type JwsSigner,
} from '@fhir-auth/core'
import { signCompactJws } from '@fhir-auth/core/jws'
import { compactVerify, importJWK, type JWK } from 'jose'
import { expect } from 'vitest'

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject, but it resolved')
}

/** Expects a `CryptoError` with `reason`, and returns it for further checks. */
export async function expectCryptoError(
  promise: Promise<unknown>,
  reason: CryptoError['reason'],
): Promise<CryptoError> {
  const error = await rejectionOf(promise)
  expect(error).toBeInstanceOf(CryptoError)
  expect(error).toBeInstanceOf(FhirAuthError)
  expect((error as CryptoError).reason).toBe(reason)
  expect((error as CryptoError).cause).toBeUndefined()
  return error as CryptoError
}

/** Expects a `ConfigurationError` on `attribute`, and returns it for further checks. */
export async function expectConfigurationError(
  promise: Promise<unknown>,
  attribute: string,
): Promise<ConfigurationError> {
  const error = await rejectionOf(promise)
  expect(error).toBeInstanceOf(ConfigurationError)
  expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
  return error as ConfigurationError
}

/**
 * Signs a compact JWS with the signer and verifies it with jose (an independent
 * implementation) using the public JWK; returns the raw signature bytes.
 */
export async function signAndVerifyWithJose(
  signer: JwsSigner,
  publicJwk: Jwk,
): Promise<Uint8Array> {
  const jws = await signCompactJws({ typ: 'JWT' }, { sub: 'test', iat: 1 }, signer)
  const key = await importJWK(joseJwk(publicJwk), signer.alg)
  const { protectedHeader } = await compactVerify(jws, key, { algorithms: [signer.alg] })
  expect(protectedHeader.alg).toBe(signer.alg)
  const signature = base64UrlDecode(jws.split('.')[2] ?? '')
  if (signature === undefined) throw new Error('the JWS signature is not base64url')
  return signature
}

/** Our structural `Jwk` as jose's `JWK` type (which has no `undefined` members). */
export function joseJwk(jwk: Jwk): JWK {
  return JSON.parse(JSON.stringify(jwk)) as JWK
}

/** A copy of `bytes` with the byte at `index` (negative: from the end) inverted. */
export function withFlippedByte(bytes: Uint8Array, index: number): Uint8Array {
  const copy = new Uint8Array(bytes)
  const position = index < 0 ? copy.length + index : index
  copy[position] = (copy[position] ?? 0) ^ 0xff
  return copy
}
