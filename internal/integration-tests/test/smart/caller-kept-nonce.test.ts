/**
 * Issue 24, finding 8, against the oidc-provider sandbox: a caller-kept completion
 * (`completeAuthorization(url, { state, codeVerifier })`) when the scopes include `openid` needs
 * the `nonce` that `beginAuthorization` sent. Without it the ID token's nonce could not be
 * compared, and an ID token injected into the callback would pass (OIDC Core §3.1.3.7 item 11):
 * it is a `ConfigurationError` on `nonce`, and the code is never sent to the token endpoint.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation OIDC Core §3.1.3.7
 */
import { ConfigurationError } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import {
  appClient,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

it('with openid in the scopes, a completion without the nonce is a ConfigurationError on nonce; the code is not sent, and completes with the nonce', async () => {
  expect(standaloneScopes).toContain('openid')
  const client = appClient(fixture, 'public')
  // Kept by the caller, not in a store: the app holds state, codeVerifier and nonce itself.
  const begun = await client.beginAuthorization()
  const { state, codeVerifier, nonce } = begun
  expect(nonce).toBeTypeOf('string')
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  const callback = result.redirectUrl?.href ?? ''
  expect(result.code).toBeTypeOf('string')
  fixture.sandbox.clearRequests()

  const error = await failureOf(
    client.completeAuthorization(callback, { state, codeVerifier: String(codeVerifier) }),
    ConfigurationError,
  )
  expect(error.invalidAttribute).toBe('nonce')
  expect(requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)).toHaveLength(0)

  // The code was not spent: the same callback completes once the nonce is passed.
  const session = await client.completeAuthorization(callback, {
    state,
    codeVerifier: String(codeVerifier),
    nonce,
  })
  expect(session.tokens.idTokenClaims?.nonce).toBe(nonce)
  expect(requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)).toHaveLength(1)
})
