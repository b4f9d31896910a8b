/**
 * The ID token failure matrix (DESIGN §8, OIDC Core §3.1.3.7) through `Client`, on both crypto
 * backends: the sandbox rewrites the ID token of its token responses (wrong aud/iss/nonce/azp,
 * expired, issued in the future, alg none, HS256 keyed with the client secret, a bad signature,
 * a key it never publishes, a rotated key) and `completeAuthorization` must refuse each with its
 * own reason — or, for the rotated key, refetch the key set once and accept.
 */
import { IdTokenError, type IdTokenFailureReason, memoryStore } from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import type { IdTokenVariant } from '@fhir-auth/sandbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import { appClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterEach(() => fixture.sandbox.setIdTokenVariant(undefined))

afterAll(async () => {
  await fixture?.sandbox.close()
})

const refusals: readonly [IdTokenVariant, IdTokenFailureReason][] = [
  ['wrong-aud', 'aud'],
  ['wrong-iss', 'iss'],
  ['wrong-nonce', 'nonce'],
  ['azp-missing', 'azp'],
  ['azp-wrong', 'azp'],
  ['expired', 'exp'],
  ['iat-future', 'iat'],
  ['alg-none', 'alg'],
  ['hs256-client-secret', 'alg'],
  ['bad-signature', 'signature'],
  ['unknown-kid', 'jwks'],
]

const backends = [
  ['crypto-node (the default)', () => undefined],
  ['crypto-webcrypto', () => createWebCryptoBackend()],
] as const

describe.each(backends)('ID tokens checked with %s', (_name, backend) => {
  /** One client per backend: its key set is fetched once and kept, as in an app. */
  const client = () => appClient(fixture, 'symmetric', {}, { crypto: backend() })

  async function complete(variant: IdTokenVariant | undefined, app = client()) {
    const store = memoryStore()
    const begun = await app.beginAuthorization({ store })
    const result = await fixture.sandbox.authorize({ url: begun.authUrl })
    fixture.sandbox.setIdTokenVariant(variant)
    return app.completeAuthorization(result.redirectUrl?.href ?? '', { store })
  }

  it.each(refusals)('refuses %s with reason %s', async (variant, reason) => {
    await expect(complete(variant)).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof IdTokenError && error.reason === reason && !error.message.includes('eyJ'),
    )
  })

  it('accepts a token signed by a rotated key after one refetch of the key set', async () => {
    const app = client()
    await complete(undefined, app)
    const fetchesBefore = requestsTo(fixture.sandbox, fixture.sandbox.endpoints.jwks).length
    const session = await complete('rotated-key', app)
    expect(session.tokens.idTokenClaims?.sub).toBe('practitioner-1')
    expect(requestsTo(fixture.sandbox, fixture.sandbox.endpoints.jwks).length - fetchesBefore).toBe(
      1,
    )
  })
})
