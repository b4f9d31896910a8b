/**
 * Fixtures of the ID token tests (OIDC Core §3.1.3.7), portable: keys made and tokens signed
 * with WebCrypto, a key set served by a scripted fetch, signatures checked with WebCrypto.
 */
import { expect } from 'vitest'
import {
  base64UrlEncode,
  base64UrlEncodeText,
  type CryptoBackend,
  IdTokenError,
  type IdTokenFailureReason,
  type Jwk,
  type VerificationAlgorithm,
} from '../../src/index.js'
import {
  type IdTokenExpectations,
  JsonWebKeySet,
  type JsonWebKeySetOptions,
} from '../../src/oidc.js'
import {
  type GeneratedKeyPair,
  generateTestKeyPair,
  signWithKey,
  type TestCurve,
  verifyWithWebCrypto,
} from '../x509/fixtures/webcrypto-keys.js'

export const issuer = 'https://ehr.example.org/fhir'
export const clientId = 'app-1'
export const jwksUri = 'https://ehr.example.org/jwks'
export const now = new Date('2026-11-24T12:00:00Z')
export const nowSeconds = now.getTime() / 1000

export const backend = { verifySignature: verifyWithWebCrypto } as unknown as CryptoBackend

export interface Signer {
  readonly pair: GeneratedKeyPair
  readonly jwk: Jwk
  readonly algorithm: VerificationAlgorithm
}

export async function signer(
  algorithm: VerificationAlgorithm,
  kid: string,
  curve?: TestCurve,
): Promise<Signer> {
  const pair = await generateTestKeyPair(algorithm, curve)
  return { pair, algorithm, jwk: { ...(pair.publicJwk as Jwk), kid, use: 'sig' } }
}

export async function sign(
  by: Signer,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const input = `${base64UrlEncodeText(JSON.stringify({ alg: by.algorithm, kid: by.jwk.kid, ...header }))}.${base64UrlEncodeText(JSON.stringify(claims))}`
  const signature = await signWithKey(
    by.pair.privateKey,
    by.algorithm,
    new TextEncoder().encode(input),
  )
  return `${input}.${base64UrlEncode(signature)}`
}

export function goodClaims(extra: Record<string, unknown> = {}) {
  return {
    iss: issuer,
    sub: 'user-1',
    aud: clientId,
    exp: nowSeconds + 300,
    iat: nowSeconds - 10,
    nonce: 'n-1',
    fhirUser: 'Practitioner/1',
    ...extra,
  }
}

/** A key set whose served keys can change; counts fetches. */
export function keySet(initial: Jwk[], options?: JsonWebKeySetOptions) {
  const served = { keys: initial, fetches: 0, status: 200 }
  const set = new JsonWebKeySet(
    jwksUri,
    () => ({
      fetch: async (url: string) => {
        expect(url).toBe(jwksUri)
        served.fetches += 1
        return new Response(JSON.stringify({ keys: served.keys }), {
          status: served.status,
          headers: { 'content-type': 'application/json' },
        })
      },
    }),
    options,
  )
  return { set, served }
}

export async function expectReason(promise: Promise<unknown>, reason: IdTokenFailureReason) {
  await expect(promise).rejects.toSatisfy(
    (error: unknown) => error instanceof IdTokenError && error.reason === reason,
  )
}

/** What a token from {@link issuer} to {@link clientId} is checked against, at {@link now}. */
export function expectationsFor(
  keys: JsonWebKeySet,
  extra: Partial<IdTokenExpectations> = {},
): IdTokenExpectations {
  return { issuer, clientId, algorithms: ['RS256'], keys, crypto: backend, now, ...extra }
}
