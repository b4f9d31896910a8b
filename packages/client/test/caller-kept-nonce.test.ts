/**
 * A caller-kept completion (`completeAuthorization(url, { state, codeVerifier })`) when the
 * scopes include `openid` needs the `nonce` too: without it the ID token's nonce could not be
 * compared, and a token injected into the callback would pass (OIDC Core §3.1.3.7 item 11). It
 * is a `ConfigurationError` on `nonce`, before any request.
 */
import { AuthorizationError, Client, ConfigurationError } from '@fhir-auth/client'
import { expect, it } from 'vitest'
import { baseUrl, fakeServer } from './support.js'

const config = {
  baseUrl,
  clientId: 'app',
  redirectUri: 'https://app.example.org/cb',
  scopes: ['launch/patient', 'openid', 'fhirUser'],
}
const callback = `${config.redirectUri}?code=c1&state=s1&iss=${encodeURIComponent(baseUrl)}`
const kept = { state: 's1', codeVerifier: 'v'.repeat(43) }

it.each([
  ['left out', {}],
  ['undefined', { nonce: undefined }],
  ['null', { nonce: null }],
  ['empty', { nonce: '' }],
])(
  'with openid in the scopes, a nonce %s is a ConfigurationError on nonce, and nothing is sent',
  async (_case, nonce) => {
    // No route at all: any request would fail the test.
    const server = fakeServer({})
    const client = new Client(config, { fetch: server.fetch })
    const error = await client
      .completeAuthorization(callback, { ...kept, ...nonce } as never)
      .catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({
      invalidAttribute: 'nonce',
      message:
        'nonce is required when the scopes include openid: pass the nonce beginAuthorization returned with the state and codeVerifier',
    })
    expect(server.requests).toHaveLength(0)
  },
)

it('checks the state first: a callback for another launch is still state_mismatch', async () => {
  const server = fakeServer({})
  const client = new Client(config, { fetch: server.fetch })
  await expect(client.completeAuthorization(callback, { ...kept, state: 's2' })).rejects.toSatisfy(
    (error) => error instanceof AuthorizationError && error.error === 'state_mismatch',
  )
  expect(server.requests).toHaveLength(0)
})
